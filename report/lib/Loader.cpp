//===- Loader.cpp - Reading profile.json ----------------------------------===//

#include "pomp/report/Loader.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iterator>
#include <optional>
#include <vector>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sys/stat.h>

namespace pomp::report {
namespace {

using nlohmann::json;

/// A field that is not what the schema says; thrown inside the loader only,
/// where one failure anywhere ends the load with one message.
struct SchemaError {
  std::string Pointer;
  std::string Problem;
};

/// A JSON value and its JSON pointer, for messages.
struct Field {
  const json &Value;
  std::string Pointer;

  [[noreturn]] void fail(const std::string &Problem) const { throw SchemaError{Pointer, Problem}; }

  [[noreturn]] void wrongType(const char *Expected) const {
    fail(std::string("expected ") + Expected + ", found " + Value.type_name());
  }

  const json::object_t &object() const {
    if (!Value.is_object())
      wrongType("an object");
    return Value.get_ref<const json::object_t &>();
  }

  Field member(const char *Key) const {
    const json::object_t &Object = object();
    const auto It = Object.find(Key);
    if (It == Object.end())
      throw SchemaError{Pointer + "/" + Key, "missing"};
    return Field{It->second, Pointer + "/" + Key};
  }

  Field element(std::size_t Index) const {
    return Field{Value[Index], Pointer + "/" + std::to_string(Index)};
  }

  std::size_t arraySize() const {
    if (!Value.is_array())
      wrongType("an array");
    return Value.size();
  }

  std::uint64_t unsignedValue() const {
    if (!Value.is_number_unsigned())
      wrongType("a non-negative integer");
    return Value.get<std::uint64_t>();
  }

  std::uint32_t smallUnsigned() const {
    const std::uint64_t V = unsignedValue();
    if (V > std::numeric_limits<std::uint32_t>::max())
      fail(std::to_string(V) + " is out of range");
    return static_cast<std::uint32_t>(V);
  }

  std::int64_t integerValue() const {
    if (!Value.is_number_integer())
      wrongType("an integer");
    if (Value.is_number_unsigned() &&
        Value.get<std::uint64_t>() >
            static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      fail("out of range");
    return Value.get<std::int64_t>();
  }

  std::string stringValue() const {
    if (!Value.is_string())
      wrongType("a string");
    return Value.get<std::string>();
  }
};

void readHeader(const Field &Root, Profile &P) {
  const Field Schema = Root.member("schema");
  if (Schema.stringValue() != ProfileSchema)
    Schema.fail("\"" + Schema.stringValue() + "\" is not a libpomp profile (expected \"" +
                std::string(ProfileSchema) + "\")");
  const Field Version = Root.member("version");
  const std::int64_t V = Version.integerValue();
  if (V < 1)
    Version.fail(std::to_string(V) + " is not a version");
  if (V > ProfileVersion)
    Version.fail("version " + std::to_string(V) + " is newer than this pomp-report reads (" +
                 std::to_string(ProfileVersion) + ")");
  P.Program = Root.member("program").stringValue();
  P.Pid = Root.member("pid").integerValue();
  P.StartTime = Root.member("start_time").stringValue();
  P.DurationNs = Root.member("duration_ns").unsignedValue();
  // Optional: profiles written before POMP_METRICS have no such field. It
  // comes before "nodes", so the streamed nodes find the names.
  if (Root.object().count("metrics") == 0)
    return;
  const Field Metrics = Root.member("metrics");
  const Field Recorded = Metrics.member("recorded");
  for (std::size_t I = 0, N = Recorded.arraySize(); I < N; ++I)
    P.Metrics.push_back(Recorded.element(I).stringValue());
  const Field Unavailable = Metrics.member("unavailable");
  for (std::size_t I = 0, N = Unavailable.arraySize(); I < N; ++I) {
    const Field U = Unavailable.element(I);
    P.UnavailableMetrics.emplace_back(U.member("name").stringValue(),
                                      U.member("reason").stringValue());
  }
}

void readThreads(const Field &Root, Profile &P) {
  const Field Threads = Root.member("threads");
  for (std::size_t I = 0, N = Threads.arraySize(); I < N; ++I)
    P.Threads.push_back(Threads.element(I).member("index").smallUnsigned());
}

/// The source span of a region, for the page's source view only: a profile
/// without it (older, or another writer) loads with none.
void readSourceSpan(const Field &F, Region &R) {
  const json::object_t &Object = F.object();
  auto Line = [&](const char *Key, std::size_t Index) -> std::uint32_t {
    const auto It = Object.find(Key);
    if (It == Object.end() || !It->second.is_array() || It->second.size() <= Index ||
        !It->second[Index].is_number_unsigned())
      return 0;
    const std::uint64_t V = It->second[Index].get<std::uint64_t>();
    return V > std::numeric_limits<std::uint32_t>::max() ? 0 : static_cast<std::uint32_t>(V);
  };
  const auto File = Object.find("file");
  if (File != Object.end() && File->second.is_string())
    R.File = File->second.get<std::string>();
  R.FirstLine = Line("start_lines", 0);
  R.LastLine = std::max(Line("end_lines", 1), R.FirstLine);
  // The enclosing function and the DWARF inline chain (profile format 2):
  // optional, names only, a profile without them loads with none.
  const auto Function = Object.find("function");
  if (Function != Object.end() && Function->second.is_string())
    R.Function = Function->second.get<std::string>();
  const auto Inlined = Object.find("inlined_into");
  if (Inlined != Object.end() && Inlined->second.is_array())
    for (const json &Caller : Inlined->second)
      if (Caller.is_string())
        R.InlinedInto.push_back(Caller.get<std::string>());
}

void readRegions(const Field &Root, Profile &P) {
  const Field Regions = Root.member("regions");
  for (std::size_t I = 0, N = Regions.arraySize(); I < N; ++I) {
    const Field F = Regions.element(I);
    Region R;
    const Field Id = F.member("id");
    R.Id = Id.smallUnsigned();
    if (R.Id == 0)
      Id.fail("region ids start at 1");
    R.Type = F.member("type").stringValue();
    R.Label = F.member("label").stringValue();
    R.Name = F.member("name").stringValue();
    R.Location = F.member("location").stringValue();
    readSourceSpan(F, R);
    if (!P.Regions.emplace(R.Id, R).second)
      Id.fail("region " + std::to_string(R.Id) + " is defined twice");
  }
}

NodeKind readKind(const Field &F) {
  const std::string Kind = F.stringValue();
  if (Kind == "work")
    return NodeKind::Work;
  if (Kind == "wait")
    return NodeKind::Wait;
  if (Kind == "event")
    return NodeKind::Event;
  if (Kind == "root")
    return NodeKind::Root;
  F.fail("unknown kind \"" + Kind + "\" (expected work, wait, event or root)");
}

/// The checks of the nodes array itself, before its elements.
std::size_t nodeCount(const Field &Nodes) {
  const std::size_t Count = Nodes.arraySize();
  if (Count == 0)
    Nodes.fail("no nodes: the program root is missing");
  if (Count > Node::NoParent)
    Nodes.fail("too many nodes");
  return Count;
}

/// Reads node I (F, at /nodes/I) into P; its parent and region are already
/// there.
void readNode(const Field &F, std::size_t I, Profile &P) {
  Node N;
  const Field Id = F.member("id");
  if (Id.unsignedValue() != I)
    Id.fail("node ids must be their position in the array (expected " + std::to_string(I) + ")");
  N.Id = static_cast<std::uint32_t>(I);
  const Field Parent = F.member("parent");
  if (I == 0) {
    if (!Parent.Value.is_null())
      Parent.fail("node 0 is the program root and has no parent (expected null)");
    N.Kind = NodeKind::Root;
  } else {
    if (Parent.Value.is_null())
      Parent.fail("only node 0 may be a root (expected a node id)");
    N.Parent = Parent.smallUnsigned();
    if (N.Parent >= I)
      Parent.fail("parent " + std::to_string(N.Parent) +
                  " does not come before the node (the tree is written in pre-order)");
    N.Depth = P.Nodes[N.Parent].Depth + 1;
    const Field RegionField = F.member("region");
    N.RegionId = RegionField.smallUnsigned();
    if (P.Regions.count(N.RegionId) == 0)
      RegionField.fail("region " + std::to_string(N.RegionId) + " is not in /regions");
    N.Event = P.intern(F.member("event").stringValue());
    N.Kind = readKind(F.member("kind"));
  }
  N.Construct = P.intern(F.member("construct").stringValue());
  N.Visits = F.member("visits").unsignedValue();
  N.InclusiveNs = F.member("inclusive_ns").unsignedValue();
  N.ExclusiveNs = F.member("exclusive_ns").unsignedValue();
  if (!P.Metrics.empty()) {
    const Field Metrics = F.member("metrics");
    for (const std::string &Name : P.Metrics) {
      const Field Values = Metrics.member(Name.c_str());
      N.MetricInclusive.push_back(Values.member("inclusive").unsignedValue());
      N.MetricExclusive.push_back(Values.member("exclusive").unsignedValue());
    }
  }
  const Field PerThread = F.member("per_thread");
  const std::size_t Threads = PerThread.arraySize();
  N.PerThread.reserve(Threads);
  for (std::size_t T = 0; T < Threads; ++T) {
    const Field E = PerThread.element(T);
    ThreadMetrics M;
    M.Thread = E.member("thread").smallUnsigned();
    M.Visits = E.member("visits").unsignedValue();
    M.InclusiveNs = E.member("inclusive_ns").unsignedValue();
    M.ExclusiveNs = E.member("exclusive_ns").unsignedValue();
    N.PerThread.push_back(M);
  }
  if (N.Parent != Node::NoParent)
    P.Nodes[N.Parent].Children.push_back(N.Id);
  P.Nodes.push_back(std::move(N));
}

void readNodes(const Field &Root, Profile &P) {
  const Field Nodes = Root.member("nodes");
  const std::size_t Count = nodeCount(Nodes);
  P.Nodes.reserve(Count);
  for (std::size_t I = 0; I < Count; ++I)
    readNode(Nodes.element(I), I, P);
}

void readAnomalies(const Field &Root, Profile &P) {
  const Field Anomalies = Root.member("anomalies");
  for (const auto &[Name, Value] : Anomalies.object())
    P.Anomalies.emplace_back(Name, Field{Value, Anomalies.Pointer + "/" + Name}.unsignedValue());
}

/// Optional: profiles of older libpomp versions have no such field.
void readUninstrumented(const Field &Root, Profile &P) {
  if (Root.object().count("uninstrumented") == 0)
    return;
  const Field Files = Root.member("uninstrumented");
  for (std::size_t I = 0, N = Files.arraySize(); I < N; ++I) {
    const Field F = Files.element(I);
    P.Uninstrumented.emplace_back(F.member("file").stringValue(), F.member("reason").stringValue());
  }
}

/// Optional: profiles of older libpomp versions have no `run`.
void readRun(const Field &Root, Profile &P) {
  if (Root.object().count("run") == 0)
    return;
  const Field Run = Root.member("run");
  RunMetadata &M = P.Run;
  M.Present = true;
  const Field Line = Run.member("command_line");
  for (std::size_t I = 0, N = Line.arraySize(); I < N; ++I)
    M.CommandLine.push_back(Line.element(I).stringValue());
  const Field Settings = Run.member("settings");
  for (const auto &[Name, Value] : Settings.object())
    M.Settings.emplace_back(Name, Field{Value, Settings.Pointer + "/" + Name}.stringValue());
  M.Host = Run.member("host").stringValue();
  M.OpenMPRuntime = Run.member("openmp_runtime").stringValue();
  const Field Ompt = Run.member("ompt");
  const Field Active = Ompt.member("active");
  if (!Active.Value.is_boolean())
    Active.wrongType("a boolean");
  M.OmptActive = Active.Value.get<bool>();
  M.OmptReason = Ompt.member("reason").stringValue();
  M.Compiler = Run.member("compiler").stringValue();
  M.ToolkitVersion = Run.member("toolkit_version").stringValue();
}

/// JSON's own message without the library's "[json.exception.parse_error.101] " prefix.
std::string parseMessage(const char *What) {
  std::string Message(What);
  if (!Message.empty() && Message.front() == '[') {
    const std::size_t Close = Message.find("] ");
    if (Close != std::string::npos)
      Message.erase(0, Close + 2);
  }
  return Message;
}

/// The members the report checks before the nodes (readHeader, readThreads,
/// readRegions): when all of them precede "nodes" in the file, as libpomp
/// writes it, the nodes can be read one by one while the file is parsed.
constexpr const char *MembersBeforeNodes[] = {"schema",     "version",     "program", "pid",
                                              "start_time", "duration_ns", "threads", "regions"};

/// Builds the document while it is parsed (as nlohmann's own DOM parser
/// does), except for the elements of the top-level "nodes" array, which are
/// built one at a time, turned into the profile's nodes and dropped: the
/// nodes are nearly the whole file, and a DOM of them takes about six times
/// its size. The checks and their messages are those of the whole document
/// (readNode on each element, with its JSON pointer); the first problem is
/// kept and reported after the parse, so a syntax error later in the file
/// still comes first, as before. A file whose "nodes" come before the
/// members they refer to is read the old way, as one document.
class ProfileBuilder final : public nlohmann::json_sax<json> {
public:
  /// The document without the streamed nodes.
  json Root;
  /// The profile read so far, when the nodes were streamed.
  Profile P;
  /// Whether the nodes were streamed into P (else they are in Root).
  bool Streamed = false;
  /// The first problem of the streamed part.
  std::optional<SchemaError> Problem;
  /// The syntax error, with the parser's message.
  std::optional<std::string> SyntaxError;

  bool null() override { return value(nullptr); }
  bool boolean(bool Value) override { return value(Value); }
  bool number_integer(number_integer_t Value) override { return value(Value); }
  bool number_unsigned(number_unsigned_t Value) override { return value(Value); }
  bool number_float(number_float_t Value, const string_t &) override { return value(Value); }
  bool string(string_t &Value) override { return value(std::move(Value)); }
  bool binary(binary_t &Value) override { return value(std::move(Value)); }

  bool start_object(std::size_t) override {
    Stack.push_back(place(json::value_t::object));
    return true;
  }
  bool key(string_t &Key) override {
    if (Stack.size() == 1 && Key == "nodes" && !Streamed && Root.is_object() &&
        std::all_of(std::begin(MembersBeforeNodes), std::end(MembersBeforeNodes),
                    [this](const char *Member) { return Root.contains(Member); })) {
      NodesNext = true;
      return true;
    }
    Slot = &Stack.back()->operator[](Key);
    return true;
  }
  bool end_object() override { return end(); }
  bool start_array(std::size_t) override {
    if (NodesNext) {
      NodesNext = false;
      startNodes();
      return true;
    }
    Stack.push_back(place(json::value_t::array));
    return true;
  }
  bool end_array() override {
    if (Stack.back() == &Element) {
      Stack.pop_back();
      endNodes();
      return true;
    }
    return end();
  }
  bool parse_error(std::size_t, const std::string &,
                   const nlohmann::detail::exception &E) override {
    SyntaxError = parseMessage(E.what());
    return false;
  }

private:
  /// The containers being built, innermost last.
  std::vector<json *> Stack;
  /// Where the value of the last key goes.
  json *Slot = nullptr;
  /// The last key was the top-level "nodes", streamed if its value is an array.
  bool NodesNext = false;
  /// The "nodes" array while it is streamed: holds one element at a time.
  json Element = json::array();
  std::size_t NextNode = 0;

  /// Where a new value goes: the root, the array being built, or the slot of
  /// the last key. The non-array value of "nodes" goes into the document.
  json *place(json &&Value) {
    if (NodesNext) {
      NodesNext = false;
      Slot = &Root["nodes"];
    }
    if (Stack.empty()) {
      Root = std::move(Value);
      return &Root;
    }
    if (Stack.back()->is_array()) {
      Stack.back()->push_back(std::move(Value));
      return &Stack.back()->back();
    }
    *Slot = std::move(Value);
    return Slot;
  }

  template <typename T> bool value(T &&Value) {
    place(json(std::forward<T>(Value)));
    if (!Stack.empty() && Stack.back() == &Element)
      readElement();
    return true;
  }

  bool end() {
    Stack.pop_back();
    if (!Stack.empty() && Stack.back() == &Element)
      readElement();
    return true;
  }

  /// The header, threads and regions are all there: check them as the
  /// whole document's checks would, before the first node.
  void startNodes() {
    Streamed = true;
    Stack.push_back(&Element);
    try {
      const Field Document{Root, ""};
      readHeader(Document, P);
      readThreads(Document, P);
      readRegions(Document, P);
    } catch (const SchemaError &E) {
      Problem = E;
    }
  }

  void readElement() {
    const std::size_t Index = NextNode++;
    if (!Problem) {
      try {
        if (Index == Node::NoParent)
          throw SchemaError{"/nodes", "too many nodes"};
        readNode(Field{Element[0], "/nodes/" + std::to_string(Index)}, Index, P);
      } catch (const SchemaError &E) {
        Problem = E;
      }
    }
    Element.clear();
  }

  void endNodes() {
    if (!Problem && NextNode == 0)
      Problem = SchemaError{"/nodes", "no nodes: the program root is missing"};
  }
};

/// The profile from a builder that has parsed the whole input.
bool finishProfile(ProfileBuilder &Builder, const std::string &Source, Profile &Out,
                   std::string &Error) {
  if (Builder.SyntaxError) {
    Error = Source + ": invalid JSON: " + *Builder.SyntaxError;
    return false;
  }
  Profile P;
  try {
    const Field Root{Builder.Root, ""};
    if (Builder.Streamed) {
      if (Builder.Problem)
        throw *Builder.Problem;
      P = std::move(Builder.P);
    } else {
      Root.object();
      readHeader(Root, P);
      readThreads(Root, P);
      readRegions(Root, P);
      readNodes(Root, P);
    }
    readAnomalies(Root, P);
    readUninstrumented(Root, P);
    readRun(Root, P);
  } catch (const SchemaError &E) {
    Error = Source + ": " + (E.Pointer.empty() ? "/" : E.Pointer) + ": " + E.Problem;
    return false;
  }
  Out = std::move(P);
  return true;
}

} // namespace

bool parseProfile(std::string_view Text, const std::string &Source, Profile &Out,
                  std::string &Error) {
  ProfileBuilder Builder;
  json::sax_parse(Text.begin(), Text.end(), &Builder);
  return finishProfile(Builder, Source, Out, Error);
}

bool loadProfile(const std::string &Path, Profile &Out, std::string &Error) {
  struct stat Info {};
  if (::stat(Path.c_str(), &Info) != 0) {
    Error = "cannot open '" + Path + "': " + std::strerror(errno);
    return false;
  }
  std::string File = Path;
  if (S_ISDIR(Info.st_mode)) {
    File = Path + (Path.empty() || Path.back() != '/' ? "/" : "") + std::string(ProfileFileName);
    if (::stat(File.c_str(), &Info) != 0) {
      Error = "'" + Path + "' has no " + std::string(ProfileFileName) + " (" +
              std::strerror(errno) + "): not an experiment directory of libpomp";
      return false;
    }
  }
  // Parsed from the file as it is read: the text is never held whole.
  std::ifstream In(File, std::ios::binary);
  if (!In) {
    Error = "cannot read '" + File + "': " + std::strerror(errno);
    return false;
  }
  ProfileBuilder Builder;
  json::sax_parse(In, &Builder);
  if (In.bad()) {
    Error = "cannot read '" + File + "': " + std::strerror(errno);
    return false;
  }
  return finishProfile(Builder, File, Out, Error);
}

} // namespace pomp::report
