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
#include <otf2/OTF2_Callbacks.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dlfcn.h>
#include <mutex>
#include <new>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_set>
#include <vector>

namespace {

// The wrapped routines' parameter lists that several of them share.
#define POMP_MPI_SEND_PARAMS                                                                       \
  const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm
#define POMP_MPI_SEND_ARGS buf, count, datatype, dest, tag, comm
#define POMP_MPI_RECV_PARAMS                                                                       \
  void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm
#define POMP_MPI_RECV_ARGS buf, count, datatype, source, tag, comm
#define POMP_MPI_BCAST_PARAMS                                                                      \
  void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm
#define POMP_MPI_BCAST_ARGS buffer, count, datatype, root, comm
#define POMP_MPI_REDUCE_PARAMS                                                                     \
  const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,       \
      MPI_Comm comm
#define POMP_MPI_REDUCE_ARGS sendbuf, recvbuf, count, datatype, op, root, comm
#define POMP_MPI_ALLREDUCE_PARAMS                                                                  \
  const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm
#define POMP_MPI_ALLREDUCE_ARGS sendbuf, recvbuf, count, datatype, op, comm
#define POMP_MPI_ROOTED_PARAMS                                                                     \
  const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,         \
      MPI_Datatype recvtype, int root, MPI_Comm comm
#define POMP_MPI_ROOTED_ARGS sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm
#define POMP_MPI_ROOTED_SHAPE sendcount, sendtype, recvcount, recvtype, root, comm
#define POMP_MPI_ALL_PARAMS                                                                        \
  const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,         \
      MPI_Datatype recvtype, MPI_Comm comm
#define POMP_MPI_ALL_ARGS sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm
#define POMP_MPI_ALL_SHAPE sendbuf, sendcount, sendtype, recvcount, recvtype, comm

/// The routines whose wrappers are written out: the job's start and end.
#define POMP_MPI_LIFECYCLE(X)                                                                      \
  X(Init, Lifecycle, (), (), ())                                                                   \
  X(Init_thread, Lifecycle, (), (), ())                                                            \
  X(Finalize, Lifecycle, (), (), ())

/// X(Name, Shape, (parameters), (arguments of PMPI_<Name>), (arguments of
/// shape<Shape>)): every other routine libpomp-mpi measures. This one list
/// makes the wrappers (POMP_MPI_WRAPPER below), the call numbers, the names
/// in mpi.json and the regions (as LLVM's OMPT runtime lists its events
/// once): a routine is measured by adding its line, with the shape of the
/// routine it behaves like (what its bytes are, which receives it completes).
#define POMP_MPI_WRAPPED(X)                                                                        \
  X(Send, Send, (POMP_MPI_SEND_PARAMS), (POMP_MPI_SEND_ARGS), (count, datatype, dest))             \
  X(Ssend, Send, (POMP_MPI_SEND_PARAMS), (POMP_MPI_SEND_ARGS), (count, datatype, dest))            \
  X(Bsend, Send, (POMP_MPI_SEND_PARAMS), (POMP_MPI_SEND_ARGS), (count, datatype, dest))            \
  X(Rsend, Send, (POMP_MPI_SEND_PARAMS), (POMP_MPI_SEND_ARGS), (count, datatype, dest))            \
  X(Recv, Recv, (POMP_MPI_RECV_PARAMS, MPI_Status * status), (POMP_MPI_RECV_ARGS, status),         \
    (status))                                                                                      \
  X(Isend, Send, (POMP_MPI_SEND_PARAMS, MPI_Request * request), (POMP_MPI_SEND_ARGS, request),     \
    (count, datatype, dest))                                                                       \
  X(Issend, Send, (POMP_MPI_SEND_PARAMS, MPI_Request * request), (POMP_MPI_SEND_ARGS, request),    \
    (count, datatype, dest))                                                                       \
  X(Ibsend, Send, (POMP_MPI_SEND_PARAMS, MPI_Request * request), (POMP_MPI_SEND_ARGS, request),    \
    (count, datatype, dest))                                                                       \
  X(Irsend, Send, (POMP_MPI_SEND_PARAMS, MPI_Request * request), (POMP_MPI_SEND_ARGS, request),    \
    (count, datatype, dest))                                                                       \
  X(Irecv, Irecv, (POMP_MPI_RECV_PARAMS, MPI_Request * request), (POMP_MPI_RECV_ARGS, request),    \
    (request))                                                                                     \
  X(Sendrecv, Sendrecv,                                                                            \
    (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,             \
     void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,  \
     MPI_Status *status),                                                                          \
    (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,   \
     comm, status),                                                                                \
    (sendcount, sendtype, dest, status))                                                           \
  X(Wait, Wait, (MPI_Request * request, MPI_Status * status), (request, status),                   \
    (request, status))                                                                             \
  X(Waitall, Waitall,                                                                              \
    (int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]),                  \
    (count, array_of_requests, array_of_statuses), (count, array_of_requests, array_of_statuses))  \
  X(Waitany, Waitany,                                                                              \
    (int count, MPI_Request array_of_requests[], int *index, MPI_Status *status),                  \
    (count, array_of_requests, index, status), (count, array_of_requests, index, status))          \
  X(Waitsome, Waitsome,                                                                            \
    (int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[],          \
     MPI_Status array_of_statuses[]),                                                              \
    (incount, array_of_requests, outcount, array_of_indices, array_of_statuses),                   \
    (incount, array_of_requests, outcount, array_of_indices, array_of_statuses))                   \
  X(Test, Test, (MPI_Request * request, int *flag, MPI_Status *status), (request, flag, status),   \
    (request, flag, status))                                                                       \
  X(Testall, Testall,                                                                              \
    (int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[]),       \
    (count, array_of_requests, flag, array_of_statuses),                                           \
    (count, array_of_requests, flag, array_of_statuses))                                           \
  X(Testany, Testany,                                                                              \
    (int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status),       \
    (count, array_of_requests, index, flag, status),                                               \
    (count, array_of_requests, index, flag, status))                                               \
  X(Testsome, Waitsome,                                                                            \
    (int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[],          \
     MPI_Status array_of_statuses[]),                                                              \
    (incount, array_of_requests, outcount, array_of_indices, array_of_statuses),                   \
    (incount, array_of_requests, outcount, array_of_indices, array_of_statuses))                   \
  X(Barrier, Plain, (MPI_Comm comm), (comm), (comm))                                               \
  X(Bcast, Bcast, (POMP_MPI_BCAST_PARAMS), (POMP_MPI_BCAST_ARGS), (count, datatype, root, comm))   \
  X(Reduce, Reduce, (POMP_MPI_REDUCE_PARAMS), (POMP_MPI_REDUCE_ARGS),                              \
    (count, datatype, root, comm))                                                                 \
  X(Allreduce, Allreduce, (POMP_MPI_ALLREDUCE_PARAMS), (POMP_MPI_ALLREDUCE_ARGS),                  \
    (count, datatype))                                                                             \
  X(Gather, Gather, (POMP_MPI_ROOTED_PARAMS), (POMP_MPI_ROOTED_ARGS), (POMP_MPI_ROOTED_SHAPE))     \
  X(Scatter, Scatter, (POMP_MPI_ROOTED_PARAMS), (POMP_MPI_ROOTED_ARGS), (POMP_MPI_ROOTED_SHAPE))   \
  X(Allgather, AllToAll, (POMP_MPI_ALL_PARAMS), (POMP_MPI_ALL_ARGS), (POMP_MPI_ALL_SHAPE))         \
  X(Alltoall, AllToAll, (POMP_MPI_ALL_PARAMS), (POMP_MPI_ALL_ARGS), (POMP_MPI_ALL_SHAPE))          \
  X(Ibarrier, Plain, (MPI_Comm comm, MPI_Request * request), (comm, request), (comm))              \
  X(Ibcast, Bcast, (POMP_MPI_BCAST_PARAMS, MPI_Request * request), (POMP_MPI_BCAST_ARGS, request), \
    (count, datatype, root, comm))                                                                 \
  X(Ireduce, Reduce, (POMP_MPI_REDUCE_PARAMS, MPI_Request * request),                              \
    (POMP_MPI_REDUCE_ARGS, request), (count, datatype, root, comm))                                \
  X(Iallreduce, Allreduce, (POMP_MPI_ALLREDUCE_PARAMS, MPI_Request * request),                     \
    (POMP_MPI_ALLREDUCE_ARGS, request), (count, datatype))                                         \
  X(Igather, Gather, (POMP_MPI_ROOTED_PARAMS, MPI_Request * request),                              \
    (POMP_MPI_ROOTED_ARGS, request), (POMP_MPI_ROOTED_SHAPE))                                      \
  X(Iscatter, Scatter, (POMP_MPI_ROOTED_PARAMS, MPI_Request * request),                            \
    (POMP_MPI_ROOTED_ARGS, request), (POMP_MPI_ROOTED_SHAPE))                                      \
  X(Iallgather, AllToAll, (POMP_MPI_ALL_PARAMS, MPI_Request * request),                            \
    (POMP_MPI_ALL_ARGS, request), (POMP_MPI_ALL_SHAPE))                                            \
  X(Ialltoall, AllToAll, (POMP_MPI_ALL_PARAMS, MPI_Request * request),                             \
    (POMP_MPI_ALL_ARGS, request), (POMP_MPI_ALL_SHAPE))                                            \
  X(Gatherv, Gatherv,                                                                              \
    (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,                     \
     const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm),  \
    (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm),             \
    (sendcount, sendtype, recvcounts, recvtype, root, comm))                                       \
  X(Scatterv, Scatterv,                                                                            \
    (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,       \
     void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm),                \
    (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm),             \
    (sendcounts, sendtype, recvcount, recvtype, root, comm))                                       \
  X(Allgatherv, Allgatherv,                                                                        \
    (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,                     \
     const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm),            \
    (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm),                   \
    (sendbuf, sendcount, sendtype, recvcounts, recvtype, comm))                                    \
  X(Alltoallv, Alltoallv,                                                                          \
    (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,      \
     void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,            \
     MPI_Comm comm),                                                                               \
    (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm),        \
    (sendbuf, sendcounts, sendtype, recvcounts, recvtype, comm))                                   \
  X(Reduce_scatter, ReduceScatter,                                                                 \
    (const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, \
     MPI_Comm comm),                                                                               \
    (sendbuf, recvbuf, recvcounts, datatype, op, comm), (recvcounts, datatype, comm))              \
  X(Reduce_scatter_block, ReduceScatterBlock,                                                      \
    (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,          \
     MPI_Comm comm),                                                                               \
    (sendbuf, recvbuf, recvcount, datatype, op, comm), (recvcount, datatype, comm))                \
  X(Scan, Allreduce, (POMP_MPI_ALLREDUCE_PARAMS), (POMP_MPI_ALLREDUCE_ARGS), (count, datatype))    \
  X(Exscan, Allreduce, (POMP_MPI_ALLREDUCE_PARAMS), (POMP_MPI_ALLREDUCE_ARGS), (count, datatype))

/// Every routine libpomp-mpi measures, in the order mpi.json lists them.
#define POMP_MPI_CALLS(X) POMP_MPI_LIFECYCLE(X) POMP_MPI_WRAPPED(X)

enum Call : int {
#define POMP_MPI_ENUM(Name, ...) Call_##Name,
  POMP_MPI_CALLS(POMP_MPI_ENUM)
#undef POMP_MPI_ENUM
      CallCount
};

constexpr const char *CallNames[] = {
#define POMP_MPI_NAME(Name, ...) "MPI_" #Name,
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
  /// Each rank's CLOCK_REALTIME when its offset was measured (rank 0 only).
  std::vector<std::int64_t> InitAt, FinalizeAt;
};

JobState Job;
std::array<CallTotals, CallCount> Totals;
std::array<POMP_Handle_t, CallCount> Handles{};
std::array<std::string, CallCount> Ctcs;

/// Set while a Fortran entry point of the layer runs the binding it hides:
/// MPICH's bindings call the C MPI_* routines (Open MPI's call PMPI_*), whose
/// wrappers must then only forward, so that a call is measured once.
thread_local bool InFortranBinding = false;

/// Marks the calling thread as inside a hidden Fortran binding.
class FortranBindingScope {
public:
  FortranBindingScope() { InFortranBinding = true; }
  ~FortranBindingScope() { InFortranBinding = false; }
  FortranBindingScope(const FortranBindingScope &) = delete;
  FortranBindingScope &operator=(const FortranBindingScope &) = delete;
};

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
void measureOffsets(std::vector<std::int64_t> &Offsets, std::vector<std::int64_t> &Errors,
                    std::vector<std::int64_t> &At) {
  if (Job.Rank == 0) {
    Offsets.assign(static_cast<std::size_t>(Job.Size), 0);
    Errors.assign(static_cast<std::size_t>(Job.Size), 0);
    At.assign(static_cast<std::size_t>(Job.Size), realtimeNs());
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
          At[static_cast<std::size_t>(Peer)] = Remote;
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
  measureOffsets(Job.InitOffsets, Job.InitErrors, Job.InitAt);
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
  measureOffsets(Job.FinalizeOffsets, Job.FinalizeErrors, Job.FinalizeAt);
  if (!Job.PartDir.empty())
    writeAtomically(Job.PartDir, "mpi.json", partJson());
  // Every rank's part is written before rank 0 calls the job complete.
  PMPI_Barrier(Job.Comm);
  if (Job.Rank == 0 && !Job.JobDir.empty())
    writeAtomically(Job.JobDir, "job.json", jobJson(true));
}

//--- OTF2's collectives over MPI, for the job's one archive ----------------//
} // namespace

/// OTF2 leaves its collective context to the caller: a communicator.
struct OTF2_CollectiveContext {
  MPI_Comm Comm;
};

namespace {

MPI_Datatype mpiType(OTF2_Type Type) {
  switch (Type) {
  case OTF2_TYPE_UINT8:
    return MPI_UINT8_T;
  case OTF2_TYPE_INT8:
    return MPI_INT8_T;
  case OTF2_TYPE_UINT16:
    return MPI_UINT16_T;
  case OTF2_TYPE_INT16:
    return MPI_INT16_T;
  case OTF2_TYPE_UINT32:
    return MPI_UINT32_T;
  case OTF2_TYPE_INT32:
    return MPI_INT32_T;
  case OTF2_TYPE_UINT64:
    return MPI_UINT64_T;
  case OTF2_TYPE_INT64:
    return MPI_INT64_T;
  case OTF2_TYPE_FLOAT:
    return MPI_FLOAT;
  case OTF2_TYPE_DOUBLE:
    return MPI_DOUBLE;
  default:
    return MPI_DATATYPE_NULL;
  }
}

OTF2_CallbackCode result(int MpiResult) {
  return MpiResult == MPI_SUCCESS ? OTF2_CALLBACK_SUCCESS : OTF2_CALLBACK_ERROR;
}

OTF2_CallbackCode otf2GetSize(void *, OTF2_CollectiveContext *C, uint32_t *Size) {
  int N = 0;
  const int R = PMPI_Comm_size(C->Comm, &N);
  *Size = static_cast<uint32_t>(N);
  return result(R);
}

OTF2_CallbackCode otf2GetRank(void *, OTF2_CollectiveContext *C, uint32_t *Rank) {
  int N = 0;
  const int R = PMPI_Comm_rank(C->Comm, &N);
  *Rank = static_cast<uint32_t>(N);
  return result(R);
}

OTF2_CallbackCode otf2CreateLocalComm(void *, OTF2_CollectiveContext **Local,
                                      OTF2_CollectiveContext *Global, uint32_t, uint32_t,
                                      uint32_t LocalRank, uint32_t, uint32_t FileNumber, uint32_t) {
  auto *C = new (std::nothrow) OTF2_CollectiveContext{MPI_COMM_NULL};
  if (!C)
    return OTF2_CALLBACK_ERROR;
  const int R = PMPI_Comm_split(Global->Comm, static_cast<int>(FileNumber),
                                static_cast<int>(LocalRank), &C->Comm);
  *Local = C;
  return result(R);
}

OTF2_CallbackCode otf2FreeLocalComm(void *, OTF2_CollectiveContext *Local) {
  if (!Local)
    return OTF2_CALLBACK_SUCCESS;
  const int R = PMPI_Comm_free(&Local->Comm);
  delete Local;
  return result(R);
}

OTF2_CallbackCode otf2Barrier(void *, OTF2_CollectiveContext *C) {
  return result(PMPI_Barrier(C->Comm));
}

OTF2_CallbackCode otf2Bcast(void *, OTF2_CollectiveContext *C, void *Data, uint32_t N,
                            OTF2_Type Type, uint32_t Root) {
  return result(
      PMPI_Bcast(Data, static_cast<int>(N), mpiType(Type), static_cast<int>(Root), C->Comm));
}

OTF2_CallbackCode otf2Gather(void *, OTF2_CollectiveContext *C, const void *In, void *Out,
                             uint32_t N, OTF2_Type Type, uint32_t Root) {
  return result(PMPI_Gather(In, static_cast<int>(N), mpiType(Type), Out, static_cast<int>(N),
                            mpiType(Type), static_cast<int>(Root), C->Comm));
}

/// Counts and displacements of a v-collective on its root.
void layout(OTF2_CollectiveContext *C, const uint32_t *Elements, std::vector<int> &Counts,
            std::vector<int> &Displacements) {
  const int Size = commSize(C->Comm);
  int At = 0;
  for (int R = 0; R < Size; ++R) {
    Counts.push_back(static_cast<int>(Elements[R]));
    Displacements.push_back(At);
    At += Counts.back();
  }
}

OTF2_CallbackCode otf2Gatherv(void *, OTF2_CollectiveContext *C, const void *In, uint32_t InN,
                              void *Out, const uint32_t *OutN, OTF2_Type Type, uint32_t Root) {
  std::vector<int> Counts, Displacements;
  if (isRoot(C->Comm, static_cast<int>(Root)))
    layout(C, OutN, Counts, Displacements);
  return result(PMPI_Gatherv(In, static_cast<int>(InN), mpiType(Type), Out, Counts.data(),
                             Displacements.data(), mpiType(Type), static_cast<int>(Root), C->Comm));
}

OTF2_CallbackCode otf2Scatter(void *, OTF2_CollectiveContext *C, const void *In, void *Out,
                              uint32_t N, OTF2_Type Type, uint32_t Root) {
  return result(PMPI_Scatter(In, static_cast<int>(N), mpiType(Type), Out, static_cast<int>(N),
                             mpiType(Type), static_cast<int>(Root), C->Comm));
}

OTF2_CallbackCode otf2Scatterv(void *, OTF2_CollectiveContext *C, const void *In,
                               const uint32_t *InN, void *Out, uint32_t OutN, OTF2_Type Type,
                               uint32_t Root) {
  std::vector<int> Counts, Displacements;
  if (isRoot(C->Comm, static_cast<int>(Root)))
    layout(C, InN, Counts, Displacements);
  return result(PMPI_Scatterv(In, Counts.data(), Displacements.data(), mpiType(Type), Out,
                              static_cast<int>(OutN), mpiType(Type), static_cast<int>(Root),
                              C->Comm));
}

void otf2Release(void *, OTF2_CollectiveContext *, OTF2_CollectiveContext *) {}

const OTF2_CollectiveCallbacks MpiCollectives = {
    otf2Release, otf2GetSize, otf2GetRank, otf2CreateLocalComm, otf2FreeLocalComm, otf2Barrier,
    otf2Bcast,   otf2Gather,  otf2Gatherv, otf2Scatter,         otf2Scatterv};

/// In MPI_Finalize, after finishJob(): when every rank writes an OTF2 trace,
/// libpomp finalises now and writes the job's one archive with these
/// collectives over the layer's communicator (docs/MPI.md, "Traces").
void traceJob() {
  if (!Job.Started || Job.JobDir.empty())
    return;
  int Mine = POMP_Otf2_trace_open() == 1 && !Job.PartDir.empty() ? 1 : 0;
  int Every = 0, Any = 0;
  PMPI_Allreduce(&Mine, &Every, 1, MPI_INT, MPI_MIN, Job.Comm);
  PMPI_Allreduce(&Mine, &Any, 1, MPI_INT, MPI_MAX, Job.Comm);
  if (!Every) {
    if (Any && Job.Rank == 0)
      message("the job's one OTF2 archive is not written: not every rank writes an OTF2 trace "
              "(POMP_TRACE=1 with format otf2 on every rank); each rank's archive stays in its "
              "part (rank-<N>/trace/traces.otf2)");
    return;
  }
  static OTF2_CollectiveContext Context;
  Context.Comm = Job.Comm;
  std::vector<std::int64_t> At, Offset, Error;
  if (Job.Rank == 0)
    for (std::size_t R = 0; R < static_cast<std::size_t>(Job.Size); ++R) {
      At.insert(At.end(), {Job.InitAt[R], Job.FinalizeAt[R]});
      Offset.insert(Offset.end(), {Job.InitOffsets[R], Job.FinalizeOffsets[R]});
      Error.insert(Error.end(), {Job.InitErrors[R], Job.FinalizeErrors[R]});
    }
  POMP_Mpi_job_trace Trace{};
  Trace.directory = Job.JobDir.c_str();
  Trace.rank = Job.Rank;
  Trace.size = Job.Size;
  Trace.collectives = &MpiCollectives;
  Trace.collective_data = nullptr;
  Trace.collective_context = &Context;
  Trace.clock_at_ns = At.empty() ? nullptr : At.data();
  Trace.clock_offset_ns = Offset.empty() ? nullptr : Offset.data();
  Trace.clock_error_ns = Error.empty() ? nullptr : Error.data();
  if (POMP_Finalize_mpi_job(&Trace) != POMP_SUCCESS)
    message("rank " + std::to_string(Job.Rank) +
            ": the job's OTF2 archive: " + POMP_Last_error_message());
}

//--- the shapes of the wrapped routines --------------------------------------//
// Each forwards the call (Forward(), PMPI_<routine> with the caller's
// arguments) and counts its bytes (docs/MPI.md, "Bytes"). A status or status
// array the caller ignores is replaced by the shape's own before Forward()
// runs, which sees the replacement (it takes the parameters by reference).

template <typename Fn> int shapePlain(Call, Fn Forward, MPI_Comm) { return Forward(); }

template <typename Fn> int shapeSend(Call C, Fn Forward, int Count, MPI_Datatype Type, int Dest) {
  addSent(C, Dest == MPI_PROC_NULL ? 0 : typeBytes(Type, Count));
  return Forward();
}

template <typename Fn> int shapeRecv(Call C, Fn Forward, MPI_Status *&Status) {
  MPI_Status Own;
  if (Status == MPI_STATUS_IGNORE)
    Status = &Own;
  const int Result = Forward();
  if (Result == MPI_SUCCESS)
    addReceived(C, statusBytes(Status));
  return Result;
}

/// A nonblocking receive: its bytes are counted when a wait or test
/// completes it.
template <typename Fn> int shapeIrecv(Call, Fn Forward, MPI_Request *Request) {
  const int Result = Forward();
  if (Result == MPI_SUCCESS && Request && *Request != MPI_REQUEST_NULL) {
    std::lock_guard<std::mutex> Lock(PendingMutex);
    PendingReceives.insert(*Request);
    HavePending.store(true, std::memory_order_release);
  }
  return Result;
}

template <typename Fn>
int shapeSendrecv(Call C, Fn Forward, int SendCount, MPI_Datatype SendType, int Dest,
                  MPI_Status *&Status) {
  addSent(C, Dest == MPI_PROC_NULL ? 0 : typeBytes(SendType, SendCount));
  return shapeRecv(C, Forward, Status);
}

template <typename Fn> int shapeWait(Call, Fn Forward, MPI_Request *Request, MPI_Status *&Status) {
  const MPI_Request Before = Request ? *Request : MPI_REQUEST_NULL;
  MPI_Status Own;
  if (Status == MPI_STATUS_IGNORE)
    Status = &Own;
  const int Result = Forward();
  if (Result == MPI_SUCCESS && takePending(Before))
    addReceived(Call_Irecv, statusBytes(Status));
  return Result;
}

template <typename Fn>
int shapeTest(Call C, Fn Forward, MPI_Request *Request, int *Flag, MPI_Status *&Status) {
  const MPI_Request Before = Request ? *Request : MPI_REQUEST_NULL;
  MPI_Status Own;
  if (Status == MPI_STATUS_IGNORE)
    Status = &Own;
  (void)C;
  const int Result = Forward();
  if (Result == MPI_SUCCESS && Flag && *Flag && takePending(Before))
    addReceived(Call_Irecv, statusBytes(Status));
  return Result;
}

/// The requests before a wait or test on an array, while receives are
/// pending (else none: nothing to count).
std::vector<MPI_Request> pendingBefore(int Count, const MPI_Request *Requests) {
  if (!HavePending.load(std::memory_order_acquire) || Count <= 0 || !Requests)
    return {};
  return std::vector<MPI_Request>(Requests, Requests + Count);
}

template <typename Fn>
int shapeTestall(Call, Fn Forward, int Count, MPI_Request *Requests, int *Flag,
                 MPI_Status *&Statuses) {
  const std::vector<MPI_Request> Before = pendingBefore(Count, Requests);
  std::vector<MPI_Status> Own;
  if (!Before.empty() && Statuses == MPI_STATUSES_IGNORE) {
    Own.resize(Before.size());
    Statuses = Own.data();
  }
  const int Result = Forward();
  if (Result == MPI_SUCCESS && !Before.empty() && Flag && *Flag)
    countCompleted(Before, Statuses, std::vector<char>(Before.size(), 1));
  return Result;
}

/// MPI_Waitall: MPI_Testall that always completes.
template <typename Fn>
int shapeWaitall(Call C, Fn Forward, int Count, MPI_Request *Requests, MPI_Status *&Statuses) {
  int Completed = 1;
  return shapeTestall(C, Forward, Count, Requests, &Completed, Statuses);
}

template <typename Fn>
int shapeWaitany(Call, Fn Forward, int Count, MPI_Request *Requests, int *Index,
                 MPI_Status *&Status) {
  const std::vector<MPI_Request> Before = pendingBefore(Count, Requests);
  MPI_Status Own;
  if (Status == MPI_STATUS_IGNORE)
    Status = &Own;
  const int Result = Forward();
  if (Result == MPI_SUCCESS && Index && *Index >= 0 &&
      static_cast<std::size_t>(*Index) < Before.size() &&
      takePending(Before[static_cast<std::size_t>(*Index)]))
    addReceived(Call_Irecv, statusBytes(Status));
  return Result;
}

template <typename Fn>
int shapeTestany(Call C, Fn Forward, int Count, MPI_Request *Requests, int *Index, int *Flag,
                 MPI_Status *&Status) {
  // Waitany's accounting holds: a test that completed nothing sets no index.
  (void)Flag;
  return shapeWaitany(C, Forward, Count, Requests, Index, Status);
}

/// MPI_Waitsome and MPI_Testsome: the completed requests are listed.
template <typename Fn>
int shapeWaitsome(Call, Fn Forward, int Count, MPI_Request *Requests, int *OutCount, int *Indices,
                  MPI_Status *&Statuses) {
  const std::vector<MPI_Request> Before = pendingBefore(Count, Requests);
  std::vector<MPI_Status> Own;
  if (!Before.empty() && Statuses == MPI_STATUSES_IGNORE) {
    Own.resize(Before.size());
    Statuses = Own.data();
  }
  const int Result = Forward();
  if (Result != MPI_SUCCESS || Before.empty() || !OutCount || *OutCount == MPI_UNDEFINED)
    return Result;
  for (int I = 0; I < *OutCount; ++I) {
    const int At = Indices[I];
    if (At >= 0 && static_cast<std::size_t>(At) < Before.size() &&
        takePending(Before[static_cast<std::size_t>(At)]))
      addReceived(Call_Irecv, statusBytes(&Statuses[I]));
  }
  return Result;
}

// Collectives count what this rank contributes and what it gets, as if the
// data went straight between the ranks (docs/MPI.md, "Bytes"); a nonblocking
// collective counts them when it starts, as a send does.

template <typename Fn>
int shapeBcast(Call C, Fn Forward, int Count, MPI_Datatype Type, int Root, MPI_Comm Comm) {
  const std::uint64_t Bytes = typeBytes(Type, Count);
  if (isRoot(Comm, Root))
    addSent(C, Bytes * static_cast<std::uint64_t>(commSize(Comm) - 1));
  else
    addReceived(C, Bytes);
  return Forward();
}

template <typename Fn>
int shapeReduce(Call C, Fn Forward, int Count, MPI_Datatype Type, int Root, MPI_Comm Comm) {
  const std::uint64_t Bytes = typeBytes(Type, Count);
  if (isRoot(Comm, Root))
    addReceived(C, Bytes * static_cast<std::uint64_t>(commSize(Comm) - 1));
  else
    addSent(C, Bytes);
  return Forward();
}

template <typename Fn> int shapeAllreduce(Call C, Fn Forward, int Count, MPI_Datatype Type) {
  const std::uint64_t Bytes = typeBytes(Type, Count);
  addSent(C, Bytes);
  addReceived(C, Bytes);
  return Forward();
}

template <typename Fn>
int shapeGather(Call C, Fn Forward, int SendCount, MPI_Datatype SendType, int RecvCount,
                MPI_Datatype RecvType, int Root, MPI_Comm Comm) {
  if (!isRoot(Comm, Root))
    addSent(C, typeBytes(SendType, SendCount));
  else
    addReceived(C, typeBytes(RecvType, RecvCount) * static_cast<std::uint64_t>(commSize(Comm) - 1));
  return Forward();
}

template <typename Fn>
int shapeScatter(Call C, Fn Forward, int SendCount, MPI_Datatype SendType, int RecvCount,
                 MPI_Datatype RecvType, int Root, MPI_Comm Comm) {
  if (isRoot(Comm, Root))
    addSent(C, typeBytes(SendType, SendCount) * static_cast<std::uint64_t>(commSize(Comm) - 1));
  else
    addReceived(C, typeBytes(RecvType, RecvCount));
  return Forward();
}

/// MPI_Allgather and MPI_Alltoall: every rank sends its block to, and gets
/// one from, every other.
template <typename Fn>
int shapeAllToAll(Call C, Fn Forward, const void *SendBuf, int SendCount, MPI_Datatype SendType,
                  int RecvCount, MPI_Datatype RecvType, MPI_Comm Comm) {
  const std::uint64_t Others = static_cast<std::uint64_t>(commSize(Comm) - 1);
  const std::uint64_t Mine =
      SendBuf == MPI_IN_PLACE ? typeBytes(RecvType, RecvCount) : typeBytes(SendType, SendCount);
  addSent(C, Mine * Others);
  addReceived(C, typeBytes(RecvType, RecvCount) * Others);
  return Forward();
}

/// The bytes of the blocks of every rank but this one: what a v-collective
/// moves between this rank and the others (its own block stays).
std::uint64_t othersBytes(const int *Counts, MPI_Datatype Type, MPI_Comm Comm) {
  int Rank = -1;
  PMPI_Comm_rank(Comm, &Rank);
  std::uint64_t Bytes = 0;
  if (Counts)
    for (int R = 0, Size = commSize(Comm); R < Size; ++R)
      if (R != Rank)
        Bytes += typeBytes(Type, Counts[R]);
  return Bytes;
}

/// This rank's block of a v-collective's counts.
int ownCount(const int *Counts, MPI_Comm Comm) {
  int Rank = -1;
  return Counts && PMPI_Comm_rank(Comm, &Rank) == MPI_SUCCESS && Rank >= 0 ? Counts[Rank] : 0;
}

template <typename Fn>
int shapeGatherv(Call C, Fn Forward, int SendCount, MPI_Datatype SendType, const int *RecvCounts,
                 MPI_Datatype RecvType, int Root, MPI_Comm Comm) {
  if (!isRoot(Comm, Root))
    addSent(C, typeBytes(SendType, SendCount));
  else
    addReceived(C, othersBytes(RecvCounts, RecvType, Comm));
  return Forward();
}

template <typename Fn>
int shapeScatterv(Call C, Fn Forward, const int *SendCounts, MPI_Datatype SendType, int RecvCount,
                  MPI_Datatype RecvType, int Root, MPI_Comm Comm) {
  if (isRoot(Comm, Root))
    addSent(C, othersBytes(SendCounts, SendType, Comm));
  else
    addReceived(C, typeBytes(RecvType, RecvCount));
  return Forward();
}

/// MPI_Allgatherv: this rank's block to every other, every other's block here.
template <typename Fn>
int shapeAllgatherv(Call C, Fn Forward, const void *SendBuf, int SendCount, MPI_Datatype SendType,
                    const int *RecvCounts, MPI_Datatype RecvType, MPI_Comm Comm) {
  const std::uint64_t Mine = SendBuf == MPI_IN_PLACE
                                 ? typeBytes(RecvType, ownCount(RecvCounts, Comm))
                                 : typeBytes(SendType, SendCount);
  addSent(C, Mine * static_cast<std::uint64_t>(commSize(Comm) - 1));
  addReceived(C, othersBytes(RecvCounts, RecvType, Comm));
  return Forward();
}

/// MPI_Alltoallv: a block of its own size to and from every other rank (in
/// place, the receive counts are both).
template <typename Fn>
int shapeAlltoallv(Call C, Fn Forward, const void *SendBuf, const int *SendCounts,
                   MPI_Datatype SendType, const int *RecvCounts, MPI_Datatype RecvType,
                   MPI_Comm Comm) {
  addSent(C, SendBuf == MPI_IN_PLACE ? othersBytes(RecvCounts, RecvType, Comm)
                                     : othersBytes(SendCounts, SendType, Comm));
  addReceived(C, othersBytes(RecvCounts, RecvType, Comm));
  return Forward();
}

/// MPI_Reduce_scatter: this rank contributes the whole vector and gets its
/// block of the result, as MPI_Allreduce counts its vector both ways.
template <typename Fn>
int shapeReduceScatter(Call C, Fn Forward, const int *RecvCounts, MPI_Datatype Type,
                       MPI_Comm Comm) {
  std::uint64_t Whole = 0;
  if (RecvCounts)
    for (int R = 0, Size = commSize(Comm); R < Size; ++R)
      Whole += typeBytes(Type, RecvCounts[R]);
  addSent(C, Whole);
  addReceived(C, typeBytes(Type, ownCount(RecvCounts, Comm)));
  return Forward();
}

template <typename Fn>
int shapeReduceScatterBlock(Call C, Fn Forward, int RecvCount, MPI_Datatype Type, MPI_Comm Comm) {
  addSent(C, typeBytes(Type, RecvCount) * static_cast<std::uint64_t>(commSize(Comm)));
  addReceived(C, typeBytes(Type, RecvCount));
  return Forward();
}

/// MPI_Init and MPI_Init_thread, in C or Fortran: Forward() initialises MPI;
/// the job is set up inside the call's region, so that a trace, which opens
/// in the rank's part there, starts with that region open (docs/MPI.md).
template <typename Fn> int initJob(Call C, Fn Forward, const int *Provided) {
  const bool Record = callsRecorded();
  CallRegion Region(C, Record);
  const int Result = Forward();
  if (Result == MPI_SUCCESS) {
    int Level = MPI_THREAD_SINGLE;
    if (Provided)
      Level = *Provided;
    else
      PMPI_Query_thread(&Level);
    startJob(Level);
    Job.Recording = Record;
  }
  return Result;
}

/// MPI_Finalize, in C or Fortran, before the MPI library's own.
void finalizeJob() {
  {
    CallRegion Region(Call_Finalize, Job.Recording);
    finishJob();
    Job.Recording = false;
  }
  // Ends the measurement when the job's trace is written, after the region:
  // writing the archive is the measurement's own work.
  traceJob();
  if (Job.Started)
    PMPI_Comm_free(&Job.Comm);
}

} // namespace

//--- the wrappers ------------------------------------------------------------//

extern "C" {

// The job is set up inside the MPI_Init region, so that a trace, which opens
// in the rank's part there, starts with that region open (docs/MPI.md).
int MPI_Init(int *argc, char ***argv) {
  if (InFortranBinding)
    return PMPI_Init(argc, argv);
  return initJob(
      Call_Init, [&] { return PMPI_Init(argc, argv); }, nullptr);
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  if (InFortranBinding)
    return PMPI_Init_thread(argc, argv, required, provided);
  return initJob(
      Call_Init_thread, [&] { return PMPI_Init_thread(argc, argv, required, provided); }, provided);
}

int MPI_Finalize(void) {
  if (InFortranBinding)
    return PMPI_Finalize();
  finalizeJob();
  return PMPI_Finalize();
}

// The wrappers of POMP_MPI_WRAPPED: the call's region around its shape,
// which forwards it to PMPI.
#define POMP_MPI_UNPAREN(...) __VA_ARGS__
#define POMP_MPI_WRAPPER(Name, Shape, Params, Args, ShapeArgs)                                     \
  int MPI_##Name Params {                                                                          \
    if (InFortranBinding)                                                                          \
      return PMPI_##Name Args;                                                                     \
    CallRegion Region(Call_##Name, Job.Recording);                                                 \
    return shape##Shape(                                                                           \
        Call_##Name, [&] { return PMPI_##Name Args; }, POMP_MPI_UNPAREN ShapeArgs);                \
  }
POMP_MPI_WRAPPED(POMP_MPI_WRAPPER)
#undef POMP_MPI_WRAPPER

} // extern "C"

//--- Fortran's bindings ------------------------------------------------------//
// Open MPI's `mpif.h` and `use mpi` bindings (libmpi_mpifh) call PMPI_*
// themselves, past the C wrappers: the layer takes gfortran's (and flang's)
// names too, counts as the C wrapper does, and forwards to the binding it
// hides (the next definition, RTLD_NEXT). MPI handles are Fortran integers,
// converted for the counting only. `use mpi_f08` (mpi_*_f08_) is not taken.

namespace {

/// Room for a Fortran status the caller ignores (MPI_F_STATUS_SIZE of MPI-4;
/// before it, at least the C status's size, which Open MPI's equals).
#ifdef MPI_F_STATUS_SIZE
constexpr std::size_t FortranStatusSize = MPI_F_STATUS_SIZE;
#else
constexpr std::size_t FortranStatusSize =
    (sizeof(MPI_Status) + sizeof(MPI_Fint) - 1) / sizeof(MPI_Fint);
#endif

/// The binding the layer hides, looked up once per routine.
template <typename Fn> Fn nextBinding(const char *Name) {
  return reinterpret_cast<Fn>(::dlsym(RTLD_NEXT, Name));
}

/// A Fortran status's bytes (none when it is MPI_STATUS_IGNORE).
std::uint64_t fortranStatusBytes(const MPI_Fint *Status) {
  MPI_Status C;
  if (!Status || PMPI_Status_f2c(Status, &C) != MPI_SUCCESS)
    return 0;
  return statusBytes(&C);
}

void notePending(MPI_Request Request) {
  if (Request == MPI_REQUEST_NULL)
    return;
  std::lock_guard<std::mutex> Lock(PendingMutex);
  PendingReceives.insert(Request);
  HavePending.store(true, std::memory_order_release);
}

} // namespace

extern "C" {

/// POMP_MPI_FORTRAN(Name, lower, (parameters), (arguments), shape...): the
/// Fortran binding mpi_<lower>_ as the C wrapper of MPI_<Name>: its region
/// around the shape's statement, in which Forward() calls the hidden binding
/// and returns its ierr.
#define POMP_MPI_FORTRAN(Name, Lower, Params, Args, ...)                                           \
  void mpi_##Lower##_ Params {                                                                     \
    using Fn = void(*) Params;                                                                     \
    static const Fn Next = nextBinding<Fn>("mpi_" #Lower "_");                                     \
    CallRegion Region(Call_##Name, Job.Recording);                                                 \
    auto Forward = [&] {                                                                           \
      const FortranBindingScope Scope;                                                             \
      Next Args;                                                                                   \
      return static_cast<int>(*ierr);                                                              \
    };                                                                                             \
    __VA_ARGS__;                                                                                   \
  }

#define POMP_MPI_F_SEND_PARAMS                                                                     \
  (void *buf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *dest, MPI_Fint *tag, MPI_Fint *comm,  \
   MPI_Fint *ierr)
#define POMP_MPI_F_ISEND_PARAMS                                                                    \
  (void *buf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *dest, MPI_Fint *tag, MPI_Fint *comm,  \
   MPI_Fint *request, MPI_Fint *ierr)

POMP_MPI_FORTRAN(Send, send, POMP_MPI_F_SEND_PARAMS, (buf, count, datatype, dest, tag, comm, ierr),
                 shapeSend(Call_Send, Forward, *count, PMPI_Type_f2c(*datatype), *dest))
POMP_MPI_FORTRAN(Ssend, ssend, POMP_MPI_F_SEND_PARAMS,
                 (buf, count, datatype, dest, tag, comm, ierr),
                 shapeSend(Call_Ssend, Forward, *count, PMPI_Type_f2c(*datatype), *dest))
POMP_MPI_FORTRAN(Isend, isend, POMP_MPI_F_ISEND_PARAMS,
                 (buf, count, datatype, dest, tag, comm, request, ierr),
                 shapeSend(Call_Isend, Forward, *count, PMPI_Type_f2c(*datatype), *dest))
POMP_MPI_FORTRAN(Recv, recv,
                 (void *buf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *source, MPI_Fint *tag,
                  MPI_Fint *comm, MPI_Fint *status, MPI_Fint *ierr),
                 (buf, count, datatype, source, tag, comm, status, ierr),
                 MPI_Fint Own[FortranStatusSize];
                 if (status == MPI_F_STATUS_IGNORE) status = Own;
                 if (Forward() == MPI_SUCCESS) addReceived(Call_Recv, fortranStatusBytes(status)))
POMP_MPI_FORTRAN(Irecv, irecv,
                 (void *buf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *source, MPI_Fint *tag,
                  MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr),
                 (buf, count, datatype, source, tag, comm, request, ierr),
                 if (Forward() == MPI_SUCCESS) notePending(PMPI_Request_f2c(*request)))
POMP_MPI_FORTRAN(Wait, wait, (MPI_Fint * request, MPI_Fint *status, MPI_Fint *ierr),
                 (request, status, ierr), const MPI_Request Before = PMPI_Request_f2c(*request);
                 MPI_Fint Own[FortranStatusSize]; if (status == MPI_F_STATUS_IGNORE) status = Own;
                 if (Forward() == MPI_SUCCESS && takePending(Before))
                     addReceived(Call_Irecv, fortranStatusBytes(status)))
POMP_MPI_FORTRAN(
    Waitall, waitall,
    (MPI_Fint * count, MPI_Fint *array_of_requests, MPI_Fint *array_of_statuses, MPI_Fint *ierr),
    (count, array_of_requests, array_of_statuses, ierr),
    const std::size_t N = *count > 0 ? static_cast<std::size_t>(*count) : 0;
    std::vector<MPI_Request> Before; for (std::size_t I = 0; HavePending.load() && I < N; ++I)
                                         Before.push_back(PMPI_Request_f2c(array_of_requests[I]));
    std::vector<MPI_Fint> Own; if (!Before.empty() && array_of_statuses == MPI_F_STATUSES_IGNORE) {
      Own.resize(N * FortranStatusSize);
      array_of_statuses = Own.data();
    } if (Forward() == MPI_SUCCESS) for (std::size_t I = 0; I < Before.size();
                                         ++I) if (takePending(Before[I]))
        addReceived(Call_Irecv, fortranStatusBytes(array_of_statuses + I * FortranStatusSize)))
POMP_MPI_FORTRAN(Barrier, barrier, (MPI_Fint * comm, MPI_Fint *ierr), (comm, ierr), Forward())
POMP_MPI_FORTRAN(Bcast, bcast,
                 (void *buffer, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *root, MPI_Fint *comm,
                  MPI_Fint *ierr),
                 (buffer, count, datatype, root, comm, ierr),
                 shapeBcast(Call_Bcast, Forward, *count, PMPI_Type_f2c(*datatype), *root,
                            PMPI_Comm_f2c(*comm)))
POMP_MPI_FORTRAN(Reduce, reduce,
                 (void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *op,
                  MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr),
                 (sendbuf, recvbuf, count, datatype, op, root, comm, ierr),
                 shapeReduce(Call_Reduce, Forward, *count, PMPI_Type_f2c(*datatype), *root,
                             PMPI_Comm_f2c(*comm)))
POMP_MPI_FORTRAN(Allreduce, allreduce,
                 (void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *op,
                  MPI_Fint *comm, MPI_Fint *ierr),
                 (sendbuf, recvbuf, count, datatype, op, comm, ierr),
                 shapeAllreduce(Call_Allreduce, Forward, *count, PMPI_Type_f2c(*datatype)))

#undef POMP_MPI_FORTRAN

// The job's start and end, as MPI_Init, MPI_Init_thread and MPI_Finalize.
void mpi_init_(MPI_Fint *ierr) {
  using Fn = void (*)(MPI_Fint *);
  static const Fn Next = nextBinding<Fn>("mpi_init_");
  initJob(
      Call_Init,
      [&] {
        const FortranBindingScope Scope;
        Next(ierr);
        return static_cast<int>(*ierr);
      },
      nullptr);
}

void mpi_init_thread_(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr) {
  using Fn = void (*)(MPI_Fint *, MPI_Fint *, MPI_Fint *);
  static const Fn Next = nextBinding<Fn>("mpi_init_thread_");
  int Provided = MPI_THREAD_SINGLE;
  initJob(
      Call_Init_thread,
      [&] {
        const FortranBindingScope Scope;
        Next(required, provided, ierr);
        Provided = static_cast<int>(*provided);
        return static_cast<int>(*ierr);
      },
      &Provided);
}

void mpi_finalize_(MPI_Fint *ierr) {
  using Fn = void (*)(MPI_Fint *);
  static const Fn Next = nextBinding<Fn>("mpi_finalize_");
  finalizeJob();
  const FortranBindingScope Scope;
  Next(ierr);
}

} // extern "C"

/// Tells libpomp at initialisation that this layer is in the process, so that
/// a trace waits for MPI_Init and is opened in the rank's part (docs/MPI.md).
extern "C" __attribute__((visibility("default"))) const int pomp_mpi_layer_present = 1;
