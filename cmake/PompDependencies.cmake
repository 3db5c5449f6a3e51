# Third-party packages, all from Debian bookworm. A missing one fails with a one-line hint naming the
# setup command instead of CMake's long search report.

set(POMP_SETUP_HINT "run './dev.sh test' as root (it installs the Debian packages the toolkit needs)")

set(POMP_LLVM_ROOT "/usr/lib/llvm-19" CACHE PATH "Prefix of the Clang/LLVM 19 installation")
# Clang's version file accepts only a matching major.minor, so "19" alone would reject 19.1.x.
find_package(Clang 19.1 CONFIG QUIET
             HINTS "${POMP_LLVM_ROOT}/lib/cmake/clang" "${POMP_LLVM_ROOT}/lib/cmake")
if(NOT Clang_FOUND)
  message(FATAL_ERROR "Clang/LLVM 19 development files not found (libclang-19-dev, llvm-19-dev): "
                      "${POMP_SETUP_HINT}")
endif()
# Debian's LLVM installs the shared libraries; the tools link them instead of hundreds of archives.
if(NOT TARGET clang-cpp OR NOT TARGET LLVM)
  message(FATAL_ERROR "Clang 19 was found without the shared clang-cpp/LLVM libraries: ${POMP_SETUP_HINT}")
endif()

find_program(POMP_FILECHECK FileCheck HINTS "${LLVM_TOOLS_BINARY_DIR}" NO_DEFAULT_PATH)
find_file(POMP_LIT lit.py HINTS "${POMP_LLVM_ROOT}/build/utils/lit" NO_DEFAULT_PATH)
if(NOT POMP_FILECHECK OR NOT POMP_LIT)
  message(FATAL_ERROR "lit and FileCheck (llvm-19-tools) not found: ${POMP_SETUP_HINT}")
endif()
find_package(Python3 REQUIRED COMPONENTS Interpreter)

# elfutils' libdw header (libdw-dev) for libpomp's symbolizer. Only the header: libpomp opens
# libdw.so.1 with dlopen() at run time (pomp-runtime/src/core/Symbolizer.h).
find_path(POMP_LIBDWFL_INCLUDE_DIR elfutils/libdwfl.h)
if(NOT POMP_LIBDWFL_INCLUDE_DIR)
  message(FATAL_ERROR "elfutils' libdw header elfutils/libdwfl.h (libdw-dev) not found: ${POMP_SETUP_HINT}")
endif()

find_package(GTest QUIET)
if(NOT GTest_FOUND)
  message(FATAL_ERROR "GoogleTest (libgtest-dev) not found: ${POMP_SETUP_HINT}")
endif()

# OTF2's headers (libopen-trace-format2-dev): libpomp compiles its trace writer against them and
# loads the library only when a trace is asked for. otf2-print (otf2-tools) checks traces in tests.
find_path(POMP_OTF2_INCLUDE_DIR otf2/otf2.h)
if(NOT POMP_OTF2_INCLUDE_DIR)
  message(FATAL_ERROR "OTF2 headers (libopen-trace-format2-dev) not found: ${POMP_SETUP_HINT}")
endif()
find_program(POMP_OTF2_PRINT otf2-print)

# PAPI's header (libpapi-dev), optional: with it libpomp records hardware counters per region
# (POMP_METRICS), loading libpapi.so.7.0 with dlopen() only when they are asked for. Without it
# POMP_METRICS says that this build has no PAPI; the tests that need counters are UNSUPPORTED.
option(POMP_WITH_PAPI "Record hardware counters with PAPI when its header is found" ON)
if(POMP_WITH_PAPI)
  find_path(POMP_PAPI_INCLUDE_DIR papi.h)
endif()
if(POMP_WITH_PAPI AND POMP_PAPI_INCLUDE_DIR)
  set(POMP_HAVE_PAPI ON)
else()
  set(POMP_HAVE_PAPI OFF)
  message(STATUS "PAPI (libpapi-dev) not found: libpomp records no hardware counters")
endif()

# Compilers the tests build OpenMP programs with: the instrumented output must work with both.
find_program(POMP_CLANG19 clang-19 HINTS "${LLVM_TOOLS_BINARY_DIR}")
find_program(POMP_CLANGXX19 clang++-19 HINTS "${LLVM_TOOLS_BINARY_DIR}")
find_program(POMP_GCC gcc)
find_program(POMP_GXX g++)
foreach(tool POMP_CLANG19 POMP_CLANGXX19 POMP_GCC POMP_GXX)
  if(NOT ${tool})
    message(FATAL_ERROR "${tool} not found: ${POMP_SETUP_HINT}")
  endif()
endforeach()

# libFuzzer ships with clang-19 (libclang-rt-19-dev); fuzz targets need Clang as the C++ compiler.
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  set(POMP_HAVE_LIBFUZZER ON)
else()
  set(POMP_HAVE_LIBFUZZER OFF)
endif()

# MPI (optional; Debian's Open MPI: libopenmpi-dev, openmpi-bin): libpomp-mpi, the PMPI layer that
# makes each rank of a hybrid job a part of one job measurement (docs/MPI.md), and its tests. The
# build and every other test work without it; the MPI tests are then UNSUPPORTED (feature `mpi`).
find_package(MPI COMPONENTS C QUIET)
find_program(POMP_MPIRUN NAMES mpirun mpiexec)
find_program(POMP_MPICC mpicc)
if(MPI_C_FOUND AND POMP_MPIRUN AND POMP_MPICC)
  set(POMP_HAVE_MPI ON)
else()
  set(POMP_HAVE_MPI OFF)
  message(STATUS "MPI not found: libpomp-mpi is not built and the MPI tests are unsupported")
endif()
