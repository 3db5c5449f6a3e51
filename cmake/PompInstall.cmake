# Installation: `cmake --install <build> --prefix <dir>` gives a relocatable toolkit.
#
#   <dir>/bin/ompcc, ompc++ ompfc ompf90 ompf77 (links to ompcc), ompinst, ompinst-clang (ompinst's
#            C/C++ program), pomp-link, pomp-report, pomp-run
#   <dir>/lib/libpomp.so, libpomp.a
#   <dir>/lib/pomp/clang/include      Clang 19's resource headers (omp.h, builtins) for ompinst
#   <dir>/include/pomplib.h, pomp_types.h, pomp_context_forms.h, pomp_events.def,
#                pomp_omp_wrappers.h
#   <dir>/include/fortran/pomp_lib.h, pomp_lib.f90   Fortran's include file and module source
#   <dir>/include/fortran/{gfortran,flang}/pomp_lib.mod   the module, per compiler found
#   <dir>/lib/cmake/POMP/             find_package(POMP): POMP::pomp, POMP::pomp_static, POMP::api,
#                                     POMP::ompinst; POMP_OMPCC, POMP_OMPCXX, POMP_INCLUDE_DIR
#   <dir>/lib/pkgconfig/pomp.pc       pkg-config --cflags --libs pomp
#
# The layout is fixed (not GNUInstallDirs' lib64 or multiarch directories): the drivers find
# libpomp, the headers and the resource headers relative to their own executable, so the prefix
# can be moved. Nothing installed names the prefix; the CMake package and the pkg-config file
# compute it from their own location.
include(CMakePackageConfigHelpers)

set(POMP_INSTALL_BINDIR bin)
set(POMP_INSTALL_LIBDIR lib)
set(POMP_INSTALL_INCLUDEDIR include)
set(POMP_INSTALL_CMAKEDIR lib/cmake/POMP)

# Tools. ompinst and pomp-link load Clang's and LLVM's shared libraries from LLVM's own directory
# (libclang-cpp.so.19 is not on the system's search path); ompcc links LLVM's Support statically;
# pomp-run needs only the C and C++ runtimes and finds ../lib/libpomp.so itself.
set(POMP_INSTALLED_TOOLS ompcc ompinst ompinst-clang pomp-link pomp-report pomp-run)
set_target_properties(ompinst ompinst-clang pomp-link PROPERTIES INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
install(TARGETS ${POMP_INSTALLED_TOOLS} EXPORT POMPTargets
        RUNTIME DESTINATION ${POMP_INSTALL_BINDIR})
foreach(POMP_DRIVER_LINK ompc++ ompfc ompf90 ompf77)
  install(CODE "
    file(CREATE_LINK ompcc \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${POMP_INSTALL_BINDIR}/${POMP_DRIVER_LINK}\"
         SYMBOLIC)
    message(STATUS \"Installing: \$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${POMP_INSTALL_BINDIR}/${POMP_DRIVER_LINK} -> ompcc\")")
endforeach()

# libpomp and the API. The exported names are POMP::pomp, POMP::pomp_static and POMP::api.
set_target_properties(pomp_api PROPERTIES EXPORT_NAME api)
install(TARGETS pomp pomp_static pomp_api EXPORT POMPTargets
        LIBRARY DESTINATION ${POMP_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${POMP_INSTALL_LIBDIR})
install(DIRECTORY "${PROJECT_SOURCE_DIR}/pomp-runtime/include/"
        DESTINATION ${POMP_INSTALL_INCLUDEDIR})
# Fortran: the include file and the module source, generated from the event list (docs/FORTRAN.md).
install(FILES "${PROJECT_BINARY_DIR}/pomp-runtime/fortran/pomp_lib.h"
              "${PROJECT_BINARY_DIR}/pomp-runtime/fortran/pomp_lib.f90"
        DESTINATION ${POMP_INSTALL_INCLUDEDIR}/fortran)
foreach(POMP_FC_DIR IN LISTS POMP_FORTRAN_MODULE_DIRS)
  get_filename_component(POMP_FC_DIR_NAME "${POMP_FC_DIR}" NAME)
  install(FILES "${POMP_FC_DIR}/pomp_lib.mod"
          DESTINATION ${POMP_INSTALL_INCLUDEDIR}/fortran/${POMP_FC_DIR_NAME})
endforeach()

# Clang 19's resource headers: ompinst parses with them (docs/INSTRUMENTER.md), and a copy in the
# prefix keeps a moved or copied toolkit independent of where Clang's own files are.
execute_process(COMMAND "${POMP_CLANG19}" -print-resource-dir
                OUTPUT_VARIABLE POMP_INSTALL_CLANG_RESOURCE_DIR OUTPUT_STRIP_TRAILING_WHITESPACE)
install(DIRECTORY "${POMP_INSTALL_CLANG_RESOURCE_DIR}/include"
        DESTINATION ${POMP_INSTALL_LIBDIR}/pomp/clang)

# find_package(POMP)
install(EXPORT POMPTargets NAMESPACE POMP:: DESTINATION ${POMP_INSTALL_CMAKEDIR})
configure_package_config_file(
  "${CMAKE_CURRENT_LIST_DIR}/POMPConfig.cmake.in" "${PROJECT_BINARY_DIR}/cmake/POMPConfig.cmake"
  INSTALL_DESTINATION ${POMP_INSTALL_CMAKEDIR}
  PATH_VARS POMP_INSTALL_BINDIR POMP_INSTALL_INCLUDEDIR)
write_basic_package_version_file("${PROJECT_BINARY_DIR}/cmake/POMPConfigVersion.cmake"
                                 COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/cmake/POMPConfig.cmake"
              "${PROJECT_BINARY_DIR}/cmake/POMPConfigVersion.cmake"
              "${CMAKE_CURRENT_LIST_DIR}/POMPInstrument.cmake"
        DESTINATION ${POMP_INSTALL_CMAKEDIR})

# pkg-config
configure_file("${CMAKE_CURRENT_LIST_DIR}/pomp.pc.in" "${PROJECT_BINARY_DIR}/cmake/pomp.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/cmake/pomp.pc" DESTINATION ${POMP_INSTALL_LIBDIR}/pkgconfig)

# Documentation: man pages for the tools, the docs as Markdown (the tools' --help texts name them).
#   <dir>/share/man/man1/ompcc.1 ompinst.1 pomp-link.1 pomp-report.1 pomp-run.1
#   <dir>/share/doc/pomp/README.md and docs/*.md
install(DIRECTORY "${PROJECT_SOURCE_DIR}/docs/man/" DESTINATION share/man/man1
        FILES_MATCHING PATTERN "*.1")
foreach(POMP_DRIVER_MAN ompc++ ompfc)
  install(CODE "
    file(CREATE_LINK ompcc.1 \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/share/man/man1/${POMP_DRIVER_MAN}.1\"
         SYMBOLIC)")
endforeach()
install(FILES "${PROJECT_SOURCE_DIR}/README.md" DESTINATION share/doc/pomp)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/docs/" DESTINATION share/doc/pomp
        FILES_MATCHING PATTERN "*.md")

# ompinst as a plugin of clang-19, next to libpomp, where ompcc looks for it (docs/OMPCC.md).
if(TARGET pomp-clang-plugin)
  install(TARGETS pomp-clang-plugin LIBRARY DESTINATION ${POMP_INSTALL_LIBDIR})
endif()
