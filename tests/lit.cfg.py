# lit configuration of the POMP toolkit's test suite (tests/**/*.c, *.cpp, *.test).
import os
import shutil

import lit.formats

config.name = "POMP"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".c", ".cpp", ".test", ".f90", ".F90", ".f", ".F"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.pomp_binary_root, "tests")
# Inputs shared by several tests, not tests themselves.
config.excludes = ["Inputs", "CMakeLists.txt", "ctc", "fuzz", "lit.cfg.py", "run_equivalence.py",
                   "paper_signatures.cpp", "unit"]

# Keep the environment small and predictable; OpenMP programs get a fixed thread count unless a
# test sets its own.
config.environment["OMP_NUM_THREADS"] = "2"
# The project's own builds are strict: a source ompcc cannot instrument is an error, never a quiet
# hole in a profile. Tests of the fallback itself unset it (env -u OMPCC_STRICT or OMPCC_STRICT=0).
config.environment["OMPCC_STRICT"] = "1"
# ompcc's own cache (docs/OMPCC.md) would let one test's run serve another's and leave entries in
# $HOME: off, except in tests/ompcc/cache.test and ccache.test, which give it a directory of its own.
config.environment["OMPCC_CACHE"] = "0"
# ompinst's cache of precompiled preambles (docs/INSTRUMENTER.md) likewise: off, except in
# tests/instrumenter/preamble.test, which gives it a directory of its own.
config.environment["OMPINST_PREAMBLE"] = "0"
# ompinst-clang's start-up server (docs/OMPCC.md, "The ompinst server") would outlive the suite and
# serve one test's commands from another's: off, except in tests/ompcc/server.test, which gives it
# a directory of its own and stops its servers.
config.environment["OMPCC_SERVER"] = "0"
# Inside clang-19 a file's first compile overlaps its instrumentation only while a CPU is idle
# (docs/OMPCC.md, "The overlapped compile"), which lit's parallel tests make a matter of chance:
# the tests overlap wherever it applies, as an idle machine does; overlap.test compares with 0.
config.environment["OMPINST_OVERLAP"] = "always"
# ompcc's default real compiler is the one that built the toolkit (gcc for a plain `cmake`,
# clang-19 for ./dev.sh); the tests name clang-19 explicitly, so they pass whichever built it.
# Tests of gcc as the real compiler set OMPCC_CC/OMPCC_CXX or --cc= themselves.
config.environment["OMPCC_CC"] = config.clang
config.environment["OMPCC_CXX"] = config.clangxx
# LLVM's test utilities (`not`, `count`) come first on PATH.
config.environment["PATH"] = os.pathsep.join(
    [os.path.dirname(config.filecheck), config.pomp_tools_dir, os.environ.get("PATH", "")]
)
# ompcc instruments inside clang-19 by default (docs/OMPCC.md, "Instrumenting inside clang-19");
# OMPCC_INPROCESS=0 runs the suites with ompinst, then the compiler. Tests of one path set it
# themselves (tests/ompcc/inprocess.test, cache.test, ...).
for var in ("HOME", "TMPDIR", "LANG", "OMPCC_INPROCESS"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

config.substitutions.append(("%FileCheck", config.filecheck))
# llvm-dwarfdump comes with LLVM, beside FileCheck.
config.substitutions.append(
    ("%llvm-dwarfdump", os.path.join(os.path.dirname(config.filecheck), "llvm-dwarfdump")))
config.substitutions.append(("%clangxx", config.clangxx))
config.substitutions.append(("%clang", config.clang))
config.substitutions.append(("%gxx", config.gxx))
config.substitutions.append(("%gcc", config.gcc))
config.substitutions.append(("%samples", os.path.join(config.pomp_source_root, "samples")))
config.substitutions.append(("%pomp_include", config.pomp_include_dir))
config.substitutions.append(("%pomp_tools", config.pomp_tools_dir))
config.substitutions.append(("%pomp_lib", config.pomp_lib_dir))
config.substitutions.append(("%pomp_api_version", config.pomp_api_version))
config.substitutions.append(("%ompinst", os.path.join(config.pomp_tools_dir, "ompinst")))
config.substitutions.append(("%ompcxx", os.path.join(config.pomp_tools_dir, "ompc++")))
config.substitutions.append(("%ompcc", os.path.join(config.pomp_tools_dir, "ompcc")))
config.substitutions.append(("%pomp-report", os.path.join(config.pomp_tools_dir, "pomp-report")))
config.substitutions.append(
    ("%report-otf2-fixture", os.path.join(config.pomp_tools_dir, "report-otf2-fixture"))
)
# Instrumented output with the check comments of the test file removed, for FileCheck.
config.substitutions.append(("%strip-checks", r"sed -e '/^ *\/\/ *[A-Z][A-Z0-9-]*:/d'"))
# Builds the original and the instrumented file with gcc and clang-19, runs them with 1, 2 and 4
# threads against the checking POMP library and prints the event counts (run_equivalence.py).
config.substitutions.append(
    (
        "%run-equivalence",
        " ".join(
            [
                "python3",
                os.path.join(config.pomp_source_root, "tests", "instrumenter", "run_equivalence.py"),
                "--pomp-include", config.pomp_include_dir,
                "--check-lib", os.path.join(config.pomp_binary_root, "lib", "libpomp_check.a"),
            ]
        ),
    )
)

# Fortran tests (tests/instrumenter/fortran) check with gfortran and flang-new-19, both needed.
config.gfortran = shutil.which("gfortran")
config.flang = shutil.which("flang-new-19")
if config.gfortran and config.flang:
    config.available_features.add("fortran")
    config.substitutions.append(("%gfortran", config.gfortran))
    config.substitutions.append(("%flang", config.flang))
# Fortran: instrumented output without the test file's `! CHECK:` lines, each inserted statement
# on one line again (free form `&` ... `&`, fixed form `&` in column 6), for FileCheck.
config.substitutions.append(
    (
        "%strip-fchecks",
        r"sed -e '/^ *! *[A-Z][A-Z0-9-]*:/d' -e ':a' -e '$!N'"
        r" -e 's/\\n *! *[A-Z][A-Z0-9-]*:[^\\n]*//' -e 'ta'"
        r" -e 's/&\\n *&//' -e 's/\\n     &//' -e 'ta' -e 'P' -e 'D'",
    )
)

# otf2-print (otf2-tools) reads the OTF2 traces libpomp writes; tests that need it say
# "REQUIRES: otf2-print".
if config.otf2_print and not config.otf2_print.endswith("-NOTFOUND"):
    config.available_features.add("otf2-print")
    config.substitutions.append(("%otf2-print", config.otf2_print))

if config.pomp_sanitize:
    config.available_features.add("sanitize")
# Hardware counters (POMP_METRICS): libpomp built with PAPI's header and PAPI's perf software
# events loadable. They need no CPU counters, but PAPI's perf_event component needs libpfm4 to find
# a default PMU, which some VMs' kernels do not give ("Error libpfm4 no default PMU found"): there
# the tests of recorded counters cannot run, and do not.


def papi_counts_perf_events():
    import ctypes
    try:
        papi = ctypes.CDLL("libpapi.so.7.0")
    except OSError:
        return False
    version = 0x07000000  # PAPI_VER_CURRENT of PAPI 7.0, the soname libpomp loads
    if papi.PAPI_library_init(ctypes.c_int(version)) != version:
        return False
    code = ctypes.c_int(0)
    return papi.PAPI_event_name_to_code(b"perf::PAGE-FAULTS", ctypes.byref(code)) == 0


if getattr(config, "pomp_have_papi", False) and papi_counts_perf_events():
    config.available_features.add("papi")
# tests/ompcc/ccache.test builds through ccache (dev.sh installs it).
if shutil.which("ccache"):
    config.available_features.add("ccache")
# tests/report renders pomp-report's HTML page with headless Chromium (dev.sh installs it).
if shutil.which("chromium"):
    config.available_features.add("chromium")

# Fortran (docs/FORTRAN.md): gfortran (libgomp) and flang-new-19 (libomp), each a feature of its
# own; %pomp_fortran is the directory of the generated pomp_lib.h and pomp_lib.f90.
config.substitutions.append(
    ("%pomp_fortran", os.path.join(config.pomp_binary_root, "pomp-runtime", "fortran"))
)
for feature, compiler in (("gfortran", "gfortran"), ("flang", "flang-new-19")):
    path = shutil.which(compiler)
    if path:
        config.available_features.add(feature)
        config.substitutions.append(("%" + feature, path))
        # ompfc's real compiler is flang-new-19 unless a test says otherwise, as OMPCC_CC is
        # clang-19: one OpenMP runtime (libomp) for mixed C/Fortran programs.
        if feature == "flang":
            config.environment["OMPCC_FC"] = path
config.substitutions.append(("%ompfc", os.path.join(config.pomp_tools_dir, "ompfc")))


def ompinst_instruments_fortran():
    """Whether this ompinst has the Fortran front end (issue 14): it instruments a small free-form
    program. Tests that need it say "REQUIRES: fortran-instrumenter"; tests of ompfc that pass
    either way check more with it (%if fortran-instrumenter)."""
    import subprocess
    import tempfile

    ompinst = os.path.join(config.pomp_tools_dir, "ompinst")
    if not os.path.exists(ompinst):
        return False
    with tempfile.TemporaryDirectory(prefix="pomp-lit-") as scratch:
        source = os.path.join(scratch, "probe.f90")
        with open(source, "w") as f:
            f.write("program probe\n!$omp parallel\n!$omp end parallel\nend program probe\n")
        result = subprocess.run([ompinst, source, "-o", os.path.join(scratch, "out.f90")],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return result.returncode == 0


if ompinst_instruments_fortran():
    config.available_features.add("fortran-instrumenter")

# MPI (docs/MPI.md): Debian's Open MPI (libopenmpi-dev, openmpi-bin; dev.sh installs them) and
# libpomp-mpi, built only when CMake found MPI. Tests start jobs on this machine; Open MPI is told
# not to look for other nodes or a single-copy mechanism the sandbox lacks, to oversubscribe the
# two cores, and (in each test) to keep its session directory under the test's own TMPDIR.
if (shutil.which("mpirun") and shutil.which("mpicc")
        and os.path.exists(os.path.join(config.pomp_lib_dir, "libpomp-mpi.so"))):
    config.available_features.add("mpi")
    config.environment["OMPI_MCA_btl_vader_single_copy_mechanism"] = "none"
    config.environment["OMPI_MCA_plm_rsh_agent"] = ""
    config.environment["OMPI_MCA_rmaps_base_oversubscribe"] = "1"
    mpirun = ["mpirun", "--oversubscribe"]
    if os.geteuid() == 0:
        mpirun.append("--allow-run-as-root")
    config.substitutions.append(("%mpirun", " ".join(mpirun)))

# Fortran MPI programs (docs/MPI.md, "Fortran"): Open MPI's Fortran wrapper with gfortran.
if "mpi" in config.available_features and shutil.which("mpifort"):
    config.available_features.add("mpifort")

# MPICH next to Open MPI (docs/MPI.md, "MPICH"): its own compiler wrappers and launcher, named by
# their Debian alternatives' targets, so that Open MPI stays the default.
if ("mpi" in config.available_features and shutil.which("mpicxx.mpich")
        and shutil.which("mpicc.mpich") and shutil.which("mpirun.mpich")):
    config.available_features.add("mpich")
