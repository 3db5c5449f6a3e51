//===- mpi/PompMpi.cpp - libpomp-mpi: MPI jobs and MPI calls through PMPI --===//
///
/// \file
/// The MPI layer of libpomp (docs/MPI.md). Linked before libmpi, its MPI_*
/// definitions take the calls and forward them to the PMPI_* entry points of
/// the MPI library (the MPI standard's profiling interface):
/// - MPI_Init and MPI_Init_thread learn the rank and size; rank 0 claims the
///   job's experiment directory, writes `job.json` and announces it, and
///   every rank makes its part `rank-<N>` there and hands it to libpomp
///   (POMP_Note_mpi_part), which writes the rank's profile into it;
/// - every wrapped call is a region of CTC type `mpi` on the calling thread
///   (POMP_MPI=calls, the default), and its bytes sent and received are
///   counted per rank, written to the part's `mpi.json` at MPI_Finalize;
/// - the offset of each rank's clock to rank 0's is measured at MPI_Init and
///   at MPI_Finalize and recorded in `job.json`.
/// Nothing here is a launcher or a transport: the job is the user's mpirun.
///
//===----------------------------------------------------------------------===//

#include "pomplib.h"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_set>
#include <vector>

namespace {

/// The MPI routines libpomp-mpi measures, in the order mpi.json lists them.
#define POMP_MPI_CALLS(X)                                                                          \
  X(Init)                                                                                          \
  X(Init_thread)                                                                                   \
  X(Finalize)                                                                                      \
  X(Send) X(Ssend) X(Bsend) X(Rsend) X(Recv) X(Isend) X(Irecv) X(Sendrecv) X(Wait) X(Waitall)      \
      X(Waitany) X(Test) X(Testall) X(Barrier) X(Bcast) X(Reduce) X(Allreduce) X(Gather)           \
          X(Scatter) X(Allgather) X(Alltoall)

enum Call : int {
#define POMP_MPI_ENUM(Name) Call_##Name,
  POMP_MPI_CALLS(POMP_MPI_ENUM)
#undef POMP_MPI_ENUM
      CallCount
};

constexpr const char *CallNames[] = {
#define POMP_MPI_NAME(Name) "MPI_" #Name,
    POMP_MPI_CALLS(POMP_MPI_NAME)
#undef POMP_MPI_NAME
};
static_assert(std::size(CallNames) == CallCount, "one name per call");

/// One routine's totals on this rank, over all its threads.
struct CallTotals {
  std::atomic<std::uint64_t> Calls{0};
  std::atomic<std::uint64_t> BytesSent{0};
  std::atomic<std::uint64_t> BytesReceived{0};
};

/// Rounds of ping-pong per rank when clock offsets are measured: the one
/// with the shortest round trip gives the offset.
constexpr int OffsetRounds = 5;
/// Tags on the library's own communicator (a duplicate of MPI_COMM_WORLD, so
/// no message of the program can match them).
constexpr int OffsetTag = 1;
constexpr int NanosPerSecond = 1000000000;
/// Mode of the files libpomp-mpi creates, less the umask (as libpomp's).
constexpr mode_t DirectoryMode = 0755;

/// Everything the layer knows about the job; written by MPI_Init and
/// MPI_Finalize, which the MPI standard lets one thread call once each.
struct JobState {
  bool Recording = false; ///< POMP_MPI=calls and between init and finalize
  bool Started = false;   ///< the job directory protocol ran
  int Rank = 0;
  int Size = 1;
  int ThreadLevel = MPI_THREAD_SINGLE;
  MPI_Comm Comm = MPI_COMM_NULL; ///< the library's duplicate of MPI_COMM_WORLD
  std::string JobDir;            ///< "" when there is none (it could not be made)
  std::string PartDir;
  std::string StartTime;
  std::string LibraryVersion;
  std::vector<std::int64_t> InitOffsets, FinalizeOffsets; ///< rank 0 only
  std::vector<std::int64_t> InitErrors, FinalizeErrors;   ///< half round trips
};

JobState Job;
std::array<CallTotals, CallCount> Totals;
std::array<POMP_Handle_t, CallCount> Handles{};
std::array<std::string, CallCount> Ctcs;

/// Receive requests not yet completed: their bytes are counted when a wait
/// or test completes them.
std::mutex PendingMutex;
std::unordered_set<MPI_Request> PendingReceives;
std::atomic<bool> HavePending{false};

bool envFlag(const char *Name) {
  const char *V = std::getenv(Name);
  if (!V)
    return false;
  std::string S(V);
  S.erase(0, S.find_first_not_of(" \t"));
  S.erase(S.find_last_not_of(" \t") + 1);
  for (char &C : S)
    C = static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
  return S == "1" || S == "true" || S == "yes" || S == "on";
}

/// POMP_MPI: libpomp checks the value at initialisation and reports a bad
/// one; anything but `none` is the default, `calls`.
bool callsRecorded() {
  const char *V = std::getenv("POMP_MPI");
  if (!V)
    return true;
  std::string S(V);
  S.erase(0, S.find_first_not_of(" \t"));
  S.erase(S.find_last_not_of(" \t") + 1);
  for (char &C : S)
    C = static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
  return S != "none";
}

void message(const std::string &Text) { std::fprintf(stderr, "pomp: %s\n", Text.c_str()); }

/// The CTC string of a call's region: `type=mpi*name=MPI_Send`.
const std::string &ctcOf(Call C) {
  std::string &Ctc = Ctcs[C];
  if (Ctc.empty()) {
    const std::string Fields = std::string("*type=mpi*name=") + CallNames[C] + "**";
    Ctc = std::to_string(Fields.size()) + Fields;
  }
  return Ctc;
}

/// A call's region on the calling thread, when calls are recorded.
class CallRegion {
public:
  CallRegion(Call C, bool Record) : C(C), Open(Record) {
    Totals[C].Calls.fetch_add(1, std::memory_order_relaxed);
    if (Open)
      Open = POMP_User_region_begin(&Handles[C], 0, ctcOf(C).c_str()) == POMP_SUCCESS;
  }
  ~CallRegion() {
    if (Open)
      POMP_User_region_end(Handles[C], 0);
  }
  CallRegion(const CallRegion &) = delete;
  CallRegion &operator=(const CallRegion &) = delete;

private:
  Call C;
  bool Open;
};

#define POMP_MPI_REGION(Name) CallRegion Region(Call_##Name, Job.Recording)

std::uint64_t typeBytes(MPI_Datatype Type, int Count) {
  if (Type == MPI_DATATYPE_NULL || Count <= 0)
    return 0;
  int Size = 0;
  if (PMPI_Type_size(Type, &Size) != MPI_SUCCESS || Size < 0)
    return 0;
  return static_cast<std::uint64_t>(Size) * static_cast<std::uint64_t>(Count);
}

int commSize(MPI_Comm Comm) {
  int Size = 1;
  if (PMPI_Comm_size(Comm, &Size) != MPI_SUCCESS)
    return 1;
  return Size;
}

bool isRoot(MPI_Comm Comm, int Root) {
  int Rank = -1;
  return PMPI_Comm_rank(Comm, &Rank) == MPI_SUCCESS && Rank == Root;
}

void addSent(Call C, std::uint64_t Bytes) {
  if (Bytes)
    Totals[C].BytesSent.fetch_add(Bytes, std::memory_order_relaxed);
}

void addReceived(Call C, std::uint64_t Bytes) {
  if (Bytes)
    Totals[C].BytesReceived.fetch_add(Bytes, std::memory_order_relaxed);
}

std::uint64_t statusBytes(const MPI_Status *Status) {
  int Count = 0;
  if (PMPI_Get_count(Status, MPI_BYTE, &Count) != MPI_SUCCESS || Count == MPI_UNDEFINED ||
      Count < 0)
    return 0;
  return static_cast<std::uint64_t>(Count);
}

/// Whether Request was a pending receive; forgets it.
bool takePending(MPI_Request Request) {
  if (!HavePending.load(std::memory_order_acquire) || Request == MPI_REQUEST_NULL)
    return false;
  std::lock_guard<std::mutex> Lock(PendingMutex);
  const bool Found = PendingReceives.erase(Request) != 0;
  HavePending.store(!PendingReceives.empty(), std::memory_order_release);
  return Found;
}

/// Counts the bytes of receive requests that a wait or test completed:
/// Before holds the requests as they were before the call.
void countCompleted(const std::vector<MPI_Request> &Before, const MPI_Status *Statuses,
                    const std::vector<char> &Completed) {
  for (std::size_t I = 0; I < Before.size(); ++I)
    if (Completed[I] && takePending(Before[I]))
      addReceived(Call_Irecv, statusBytes(&Statuses[I]));
}

//--- the job's directory ---------------------------------------------------//

std::string formatNow(const char *Format, bool Utc) {
  const std::time_t Now = std::time(nullptr);
  std::tm Parts{};
  if (Utc)
    ::gmtime_r(&Now, &Parts);
  else
    ::localtime_r(&Now, &Parts);
  char Buffer[64];
  return std::strftime(Buffer, sizeof Buffer, Format, &Parts) ? Buffer : "";
}

std::string trimmedEnv(const char *Name) {
  const char *V = std::getenv(Name);
  if (!V)
    return {};
  std::string S(V);
  const std::size_t First = S.find_first_not_of(" \t\n");
  if (First == std::string::npos)
    return {};
  return S.substr(First, S.find_last_not_of(" \t\n") - First + 1);
}

/// Makes the missing parents of Path, as mkdir -p.
void makeParents(const std::string &Path) {
  for (std::size_t Slash = Path.find('/', 1); Slash != std::string::npos;
       Slash = Path.find('/', Slash + 1))
    ::mkdir(Path.substr(0, Slash).c_str(), 0777);
}

/// Claims a new directory at Base, or Base-1, Base-2, ... (as libpomp does).
std::string claimJobDirectory(const std::string &Base, std::string &Error) {
  makeParents(Base);
  constexpr int MaxSuffix = 10000;
  for (int Suffix = 0; Suffix < MaxSuffix; ++Suffix) {
    const std::string Name = Suffix == 0 ? Base : Base + "-" + std::to_string(Suffix);
    if (::mkdir(Name.c_str(), DirectoryMode) == 0)
      return Name;
    if (errno != EEXIST) {
      Error = "cannot create directory '" + Name + "': " + std::strerror(errno);
      return {};
    }
  }
  Error = "cannot create directory '" + Base + "': every suffix is taken";
  return {};
}

std::string jsonString(const std::string &S) {
  std::string Out = "\"";
  for (const char C : S) {
    if (C == '"' || C == '\\') {
      Out += '\\';
      Out += C;
    } else if (static_cast<unsigned char>(C) < 0x20) {
      char Escape[8];
      std::snprintf(Escape, sizeof Escape, "\\u%04x", C);
      Out += Escape;
    } else {
      Out += C;
    }
  }
  return Out + "\"";
}

std::string jsonArray(const std::vector<std::int64_t> &Values) {
  std::string Out = "[";
  for (std::size_t I = 0; I < Values.size(); ++I)
    Out += (I ? ", " : "") + std::to_string(Values[I]);
  return Out + "]";
}

/// Writes Directory/Name through a temporary file and rename(), so a reader
/// sees the old file or the new one, never half of one.
bool writeAtomically(const std::string &Directory, const char *Name, const std::string &Text) {
  std::string Temp = Directory + "/." + Name + ".XXXXXX";
  const int Fd = ::mkstemp(Temp.data());
  if (Fd < 0) {
    message("cannot write in '" + Directory + "' (" + Name + "): " + std::strerror(errno));
    return false;
  }
  const mode_t Mask = ::umask(0);
  ::umask(Mask);
  ::fchmod(Fd, 0666 & ~Mask);
  std::size_t Done = 0;
  bool Ok = true;
  while (Ok && Done < Text.size()) {
    const ssize_t N = ::write(Fd, Text.data() + Done, Text.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    Ok = N > 0;
    if (Ok)
      Done += static_cast<std::size_t>(N);
  }
  Ok = ::close(Fd) == 0 && Ok;
  if (Ok)
    Ok = ::rename(Temp.c_str(), (Directory + "/" + Name).c_str()) == 0;
  if (!Ok) {
    message("cannot write in '" + Directory + "' (" + Name + "): " + std::strerror(errno));
    ::unlink(Temp.c_str());
  }
  return Ok;
}

std::int64_t realtimeNs() {
  timespec Ts{};
  ::clock_gettime(CLOCK_REALTIME, &Ts);
  return static_cast<std::int64_t>(Ts.tv_sec) * NanosPerSecond + Ts.tv_nsec;
}

/// Offsets of every rank's CLOCK_REALTIME to rank 0's (remote - local, in
/// ns), by ping-pong from rank 0 with each rank in turn; the round with the
/// shortest round trip counts, and half of it bounds the error. Collective
/// over the library's communicator; the vectors are filled on rank 0 only.
void measureOffsets(std::vector<std::int64_t> &Offsets, std::vector<std::int64_t> &Errors) {
  if (Job.Rank == 0) {
    Offsets.assign(static_cast<std::size_t>(Job.Size), 0);
    Errors.assign(static_cast<std::size_t>(Job.Size), 0);
  }
  for (int Peer = 1; Peer < Job.Size; ++Peer) {
    if (Job.Rank == 0) {
      std::int64_t Best = INT64_MAX;
      for (int Round = 0; Round < OffsetRounds; ++Round) {
        std::int64_t Remote = 0;
        const std::int64_t T0 = realtimeNs();
        PMPI_Send(nullptr, 0, MPI_BYTE, Peer, OffsetTag, Job.Comm);
        PMPI_Recv(&Remote, 1, MPI_INT64_T, Peer, OffsetTag, Job.Comm, MPI_STATUS_IGNORE);
        const std::int64_t T1 = realtimeNs();
        if (T1 - T0 < Best) {
          Best = T1 - T0;
          Offsets[static_cast<std::size_t>(Peer)] = Remote - (T0 + (T1 - T0) / 2);
          Errors[static_cast<std::size_t>(Peer)] = (T1 - T0 + 1) / 2;
        }
      }
    } else if (Job.Rank == Peer) {
      for (int Round = 0; Round < OffsetRounds; ++Round) {
        PMPI_Recv(nullptr, 0, MPI_BYTE, 0, OffsetTag, Job.Comm, MPI_STATUS_IGNORE);
        const std::int64_t Now = realtimeNs();
        PMPI_Send(&Now, 1, MPI_INT64_T, 0, OffsetTag, Job.Comm);
      }
    }
  }
}

std::string jobJson(bool Complete) {
  std::ostringstream J;
  J << "{\"schema\": \"pomp-job\", \"version\": 1,\n";
  J << " \"program\": " << jsonString(program_invocation_short_name) << ", \"size\": " << Job.Size
    << ", \"start_time\": " << jsonString(Job.StartTime)
    << ", \"complete\": " << (Complete ? "true" : "false") << ",\n";
  J << " \"mpi_library\": " << jsonString(Job.LibraryVersion) << ",\n";
  J << " \"mpi_recording\": " << jsonString(callsRecorded() ? "calls" : "none") << ",\n";
  J << " \"parts\": [";
  for (int R = 0; R < Job.Size; ++R)
    J << (R ? ", " : "") << "\"rank-" << R << "\"";
  J << "],\n";
  J << " \"clock\": {\"source\": \"CLOCK_REALTIME\", \"reference_rank\": 0,"
    << " \"offsets_at_init_ns\": " << jsonArray(Job.InitOffsets)
    << ", \"error_at_init_ns\": " << jsonArray(Job.InitErrors)
    << ",\n           \"offsets_at_finalize_ns\": " << jsonArray(Job.FinalizeOffsets)
    << ", \"error_at_finalize_ns\": " << jsonArray(Job.FinalizeErrors) << "}\n";
  J << "}\n";
  return J.str();
}

std::string partJson() {
  char Host[256] = "";
  ::gethostname(Host, sizeof Host - 1);
  std::ostringstream J;
  J << "{\"schema\": \"pomp-mpi-part\", \"version\": 1,\n";
  J << " \"rank\": " << Job.Rank << ", \"size\": " << Job.Size << ", \"host\": " << jsonString(Host)
    << ", \"pid\": " << ::getpid() << ", \"thread_level\": " << Job.ThreadLevel
    << ", \"recording\": " << jsonString(callsRecorded() ? "calls" : "none") << ",\n";
  J << " \"calls\": [";
  bool First = true;
  for (int C = 0; C < CallCount; ++C) {
    const std::uint64_t N = Totals[C].Calls.load(std::memory_order_relaxed);
    if (N == 0)
      continue;
    J << (First ? "\n" : ",\n") << "  {\"name\": \"" << CallNames[C] << "\", \"calls\": " << N
      << ", \"bytes_sent\": " << Totals[C].BytesSent.load(std::memory_order_relaxed)
      << ", \"bytes_received\": " << Totals[C].BytesReceived.load(std::memory_order_relaxed) << "}";
    First = false;
  }
  J << "\n ]\n}\n";
  return J.str();
}

/// After PMPI_Init: the job directory protocol (docs/MPI.md).
void startJob(int Provided) {
  Job.ThreadLevel = Provided;
  PMPI_Comm_rank(MPI_COMM_WORLD, &Job.Rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &Job.Size);
  PMPI_Comm_dup(MPI_COMM_WORLD, &Job.Comm);
  char Version[MPI_MAX_LIBRARY_VERSION_STRING] = "";
  int Length = 0;
  PMPI_Get_library_version(Version, &Length);
  Job.LibraryVersion.assign(Version, static_cast<std::size_t>(std::max(Length, 0)));
  while (!Job.LibraryVersion.empty() &&
         (Job.LibraryVersion.back() == '\n' || Job.LibraryVersion.back() == '\0'))
    Job.LibraryVersion.pop_back();
  Job.StartTime = formatNow("%Y-%m-%dT%H:%M:%SZ", true);

  std::string Dir;
  if (Job.Rank == 0) {
    std::string Base = trimmedEnv("POMP_EXPERIMENT_DIR");
    if (Base.empty())
      Base = std::string("pomp-") + program_invocation_short_name + "-" +
             formatNow("%Y%m%d-%H%M%S", false);
    std::string Error;
    Dir = claimJobDirectory(Base, Error);
    if (Dir.empty())
      message(Error + "; each rank writes its own directory");
    else if (!writeAtomically(Dir, "job.json", jobJson(false)))
      Dir.clear();
  }
  // Rank 0 announces the directory to every rank: its length, then the name.
  int DirLength = static_cast<int>(Dir.size());
  PMPI_Bcast(&DirLength, 1, MPI_INT, 0, Job.Comm);
  Dir.resize(static_cast<std::size_t>(DirLength));
  if (DirLength > 0)
    PMPI_Bcast(Dir.data(), DirLength, MPI_CHAR, 0, Job.Comm);
  Job.Started = true;
  measureOffsets(Job.InitOffsets, Job.InitErrors);
  if (Dir.empty())
    return;
  Job.JobDir = Dir;
  const std::string Part = Dir + "/rank-" + std::to_string(Job.Rank);
  if (::mkdir(Part.c_str(), DirectoryMode) != 0) {
    message("rank " + std::to_string(Job.Rank) + ": cannot create directory '" + Part +
            "': " + std::strerror(errno));
    return;
  }
  Job.PartDir = Part;
  if (POMP_Note_mpi_part(Part.c_str(), Job.Rank, Job.Size) != POMP_SUCCESS)
    message("rank " + std::to_string(Job.Rank) + ": the profile is not in the job's part " + Part +
            ": " + POMP_Last_error_message());
  if (Job.Rank == 0 && !envFlag("POMP_QUIET"))
    message("MPI job of " + std::to_string(Job.Size) + " ranks: measurement in " + Dir +
            "/ (job.json, a part per rank: rank-0 .. rank-" + std::to_string(Job.Size - 1) + ")");
}

/// Before PMPI_Finalize: the second clock offsets, each rank's mpi.json, and
/// rank 0's final job.json.
void finishJob() {
  if (!Job.Started)
    return;
  measureOffsets(Job.FinalizeOffsets, Job.FinalizeErrors);
  if (!Job.PartDir.empty())
    writeAtomically(Job.PartDir, "mpi.json", partJson());
  // Every rank's part is written before rank 0 calls the job complete.
  PMPI_Barrier(Job.Comm);
  if (Job.Rank == 0 && !Job.JobDir.empty())
    writeAtomically(Job.JobDir, "job.json", jobJson(true));
  PMPI_Comm_free(&Job.Comm);
}

} // namespace

//--- the wrappers ------------------------------------------------------------//

extern "C" {

// The job is set up inside the MPI_Init region, so that a trace, which opens
// in the rank's part there, starts with that region open (docs/MPI.md).
int MPI_Init(int *argc, char ***argv) {
  const bool Record = callsRecorded();
  CallRegion Region(Call_Init, Record);
  const int Result = PMPI_Init(argc, argv);
  if (Result == MPI_SUCCESS) {
    int Provided = MPI_THREAD_SINGLE;
    PMPI_Query_thread(&Provided);
    startJob(Provided);
    Job.Recording = Record;
  }
  return Result;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  const bool Record = callsRecorded();
  CallRegion Region(Call_Init_thread, Record);
  const int Result = PMPI_Init_thread(argc, argv, required, provided);
  if (Result == MPI_SUCCESS) {
    startJob(provided ? *provided : required);
    Job.Recording = Record;
  }
  return Result;
}

int MPI_Finalize(void) {
  POMP_MPI_REGION(Finalize);
  finishJob();
  Job.Recording = false;
  return PMPI_Finalize();
}

int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  POMP_MPI_REGION(Send);
  addSent(Call_Send, dest == MPI_PROC_NULL ? 0 : typeBytes(datatype, count));
  return PMPI_Send(buf, count, datatype, dest, tag, comm);
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  POMP_MPI_REGION(Ssend);
  addSent(Call_Ssend, dest == MPI_PROC_NULL ? 0 : typeBytes(datatype, count));
  return PMPI_Ssend(buf, count, datatype, dest, tag, comm);
}

int MPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  POMP_MPI_REGION(Bsend);
  addSent(Call_Bsend, dest == MPI_PROC_NULL ? 0 : typeBytes(datatype, count));
  return PMPI_Bsend(buf, count, datatype, dest, tag, comm);
}

int MPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  POMP_MPI_REGION(Rsend);
  addSent(Call_Rsend, dest == MPI_PROC_NULL ? 0 : typeBytes(datatype, count));
  return PMPI_Rsend(buf, count, datatype, dest, tag, comm);
}

int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
             MPI_Status *status) {
  POMP_MPI_REGION(Recv);
  MPI_Status Own;
  MPI_Status *S = status == MPI_STATUS_IGNORE ? &Own : status;
  const int Result = PMPI_Recv(buf, count, datatype, source, tag, comm, S);
  if (Result == MPI_SUCCESS)
    addReceived(Call_Recv, statusBytes(S));
  return Result;
}

int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
              MPI_Request *request) {
  POMP_MPI_REGION(Isend);
  addSent(Call_Isend, dest == MPI_PROC_NULL ? 0 : typeBytes(datatype, count));
  return PMPI_Isend(buf, count, datatype, dest, tag, comm, request);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Request *request) {
  POMP_MPI_REGION(Irecv);
  const int Result = PMPI_Irecv(buf, count, datatype, source, tag, comm, request);
  if (Result == MPI_SUCCESS && request && *request != MPI_REQUEST_NULL) {
    std::lock_guard<std::mutex> Lock(PendingMutex);
    PendingReceives.insert(*request);
    HavePending.store(true, std::memory_order_release);
  }
  return Result;
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status *status) {
  POMP_MPI_REGION(Sendrecv);
  MPI_Status Own;
  MPI_Status *S = status == MPI_STATUS_IGNORE ? &Own : status;
  addSent(Call_Sendrecv, dest == MPI_PROC_NULL ? 0 : typeBytes(sendtype, sendcount));
  const int Result = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                                   recvtype, source, recvtag, comm, S);
  if (Result == MPI_SUCCESS)
    addReceived(Call_Sendrecv, statusBytes(S));
  return Result;
}

int MPI_Wait(MPI_Request *request, MPI_Status *status) {
  POMP_MPI_REGION(Wait);
  const MPI_Request Before = request ? *request : MPI_REQUEST_NULL;
  MPI_Status Own;
  MPI_Status *S = status == MPI_STATUS_IGNORE ? &Own : status;
  const int Result = PMPI_Wait(request, S);
  if (Result == MPI_SUCCESS && takePending(Before))
    addReceived(Call_Irecv, statusBytes(S));
  return Result;
}

int MPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]) {
  POMP_MPI_REGION(Waitall);
  if (!HavePending.load(std::memory_order_acquire) || count <= 0)
    return PMPI_Waitall(count, array_of_requests, array_of_statuses);
  const std::vector<MPI_Request> Before(array_of_requests, array_of_requests + count);
  std::vector<MPI_Status> Own;
  MPI_Status *S = array_of_statuses;
  if (S == MPI_STATUSES_IGNORE) {
    Own.resize(static_cast<std::size_t>(count));
    S = Own.data();
  }
  const int Result = PMPI_Waitall(count, array_of_requests, S);
  if (Result == MPI_SUCCESS)
    countCompleted(Before, S, std::vector<char>(static_cast<std::size_t>(count), 1));
  return Result;
}

int MPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status) {
  POMP_MPI_REGION(Waitany);
  const std::vector<MPI_Request> Before(array_of_requests, array_of_requests + std::max(count, 0));
  MPI_Status Own;
  MPI_Status *S = status == MPI_STATUS_IGNORE ? &Own : status;
  const int Result = PMPI_Waitany(count, array_of_requests, index, S);
  if (Result == MPI_SUCCESS && index && *index >= 0 && *index < count &&
      takePending(Before[static_cast<std::size_t>(*index)]))
    addReceived(Call_Irecv, statusBytes(S));
  return Result;
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status) {
  POMP_MPI_REGION(Test);
  const MPI_Request Before = request ? *request : MPI_REQUEST_NULL;
  MPI_Status Own;
  MPI_Status *S = status == MPI_STATUS_IGNORE ? &Own : status;
  const int Result = PMPI_Test(request, flag, S);
  if (Result == MPI_SUCCESS && flag && *flag && takePending(Before))
    addReceived(Call_Irecv, statusBytes(S));
  return Result;
}

int MPI_Testall(int count, MPI_Request array_of_requests[], int *flag,
                MPI_Status array_of_statuses[]) {
  POMP_MPI_REGION(Testall);
  if (!HavePending.load(std::memory_order_acquire) || count <= 0)
    return PMPI_Testall(count, array_of_requests, flag, array_of_statuses);
  const std::vector<MPI_Request> Before(array_of_requests, array_of_requests + count);
  std::vector<MPI_Status> Own;
  MPI_Status *S = array_of_statuses;
  if (S == MPI_STATUSES_IGNORE) {
    Own.resize(static_cast<std::size_t>(count));
    S = Own.data();
  }
  const int Result = PMPI_Testall(count, array_of_requests, flag, S);
  if (Result == MPI_SUCCESS && flag && *flag)
    countCompleted(Before, S, std::vector<char>(static_cast<std::size_t>(count), 1));
  return Result;
}

int MPI_Barrier(MPI_Comm comm) {
  POMP_MPI_REGION(Barrier);
  return PMPI_Barrier(comm);
}

// Collectives count what this rank contributes and what it gets, as if the
// data went straight between the ranks (docs/MPI.md, "Bytes").

int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  POMP_MPI_REGION(Bcast);
  const std::uint64_t Bytes = typeBytes(datatype, count);
  if (isRoot(comm, root))
    addSent(Call_Bcast, Bytes * static_cast<std::uint64_t>(commSize(comm) - 1));
  else
    addReceived(Call_Bcast, Bytes);
  return PMPI_Bcast(buffer, count, datatype, root, comm);
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               int root, MPI_Comm comm) {
  POMP_MPI_REGION(Reduce);
  const std::uint64_t Bytes = typeBytes(datatype, count);
  if (isRoot(comm, root))
    addReceived(Call_Reduce, Bytes * static_cast<std::uint64_t>(commSize(comm) - 1));
  else
    addSent(Call_Reduce, Bytes);
  return PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm) {
  POMP_MPI_REGION(Allreduce);
  const std::uint64_t Bytes = typeBytes(datatype, count);
  addSent(Call_Allreduce, Bytes);
  addReceived(Call_Allreduce, Bytes);
  return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
}

int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  POMP_MPI_REGION(Gather);
  const bool Root = isRoot(comm, root);
  if (!Root)
    addSent(Call_Gather, typeBytes(sendtype, sendcount));
  else
    addReceived(Call_Gather,
                typeBytes(recvtype, recvcount) * static_cast<std::uint64_t>(commSize(comm) - 1));
  return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  POMP_MPI_REGION(Scatter);
  if (isRoot(comm, root))
    addSent(Call_Scatter,
            typeBytes(sendtype, sendcount) * static_cast<std::uint64_t>(commSize(comm) - 1));
  else
    addReceived(Call_Scatter, typeBytes(recvtype, recvcount));
  return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  POMP_MPI_REGION(Allgather);
  const std::uint64_t Others = static_cast<std::uint64_t>(commSize(comm) - 1);
  const std::uint64_t Mine =
      sendbuf == MPI_IN_PLACE ? typeBytes(recvtype, recvcount) : typeBytes(sendtype, sendcount);
  addSent(Call_Allgather, Mine * Others);
  addReceived(Call_Allgather, typeBytes(recvtype, recvcount) * Others);
  return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  POMP_MPI_REGION(Alltoall);
  const std::uint64_t Others = static_cast<std::uint64_t>(commSize(comm) - 1);
  const std::uint64_t Mine =
      sendbuf == MPI_IN_PLACE ? typeBytes(recvtype, recvcount) : typeBytes(sendtype, sendcount);
  addSent(Call_Alltoall, Mine * Others);
  addReceived(Call_Alltoall, typeBytes(recvtype, recvcount) * Others);
  return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

} // extern "C"

/// Tells libpomp at initialisation that this layer is in the process, so that
/// a trace waits for MPI_Init and is opened in the rank's part (docs/MPI.md).
extern "C" __attribute__((visibility("default"))) const int pomp_mpi_layer_present = 1;
