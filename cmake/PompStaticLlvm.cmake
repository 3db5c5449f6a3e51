# Links a tool with LLVM's (and Clang's) static libraries instead of the shared libLLVM and
# libclang-cpp (issue 15, docs/PERFORMANCE.md): loading those two costs some 70 M cycles per start,
# most of it their 580,000 relocations, and ompinst runs once per instrumented file, pomp-link once
# per link. The executable is not position independent, so it starts without relocating anything.
#
#   pomp_link_llvm_statically(<target> COMPONENTS <llvm-config components>...
#                             [ARCHIVES <the target's own static libraries>...] [CLANG] [ALWAYS])
#
# ALWAYS links statically whatever POMP_STATIC_LLVM_TOOLS says: for a tool that needs a few small
# components only (ompinst's Fortran program), whose static link is as fast as a shared one.
#
# The archives (the target's own static libraries, Clang's with CLANG, LLVM's components) come
# first in one group; the shared libraries that the target's libraries name come after it, supply
# nothing, and --as-needed leaves them out (`ldd` names neither). ld.lld, where installed, links
# the result (ompinst: 110 MB) in seconds. Without the static libraries the target keeps the shared
# ones and configure says so.
#
# Off by default: the developers' guide links the tools against the shared clang-cpp and LLVM so
# that the project's own builds stay fast on 2 cores (measured here at load 12: the static ompinst
# links in 2.9 s with ld.lld, 10.5 s with GNU ld, against well under a second shared, and the
# ASan build links it again). Turn it on for an installation that instruments many files: ompinst
# then starts in 2.7 M instructions instead of 33 M (docs/PERFORMANCE.md).
option(POMP_STATIC_LLVM_TOOLS
       "Link ompinst and pomp-link with Clang's and LLVM's static libraries (faster start)" OFF)

function(pomp_link_llvm_statically target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "CLANG;ALWAYS" "" "COMPONENTS;ARCHIVES")
  if(NOT POMP_STATIC_LLVM_TOOLS AND NOT ARG_ALWAYS)
    return()
  endif()
  find_program(POMP_LLVM_CONFIG llvm-config HINTS "${LLVM_TOOLS_BINARY_DIR}" NO_DEFAULT_PATH)
  find_library(POMP_ZSTD_LIBRARY NAMES zstd libzstd.so.1)
  find_program(POMP_LD_LLD ld.lld)
  set(clang_libs)
  if(ARG_CLANG)
    file(GLOB clang_libs "${LLVM_LIBRARY_DIR}/libclang[A-Z]*.a")
  endif()
  set(llvm_libs)
  set(status 1)
  if(POMP_LLVM_CONFIG)
    execute_process(COMMAND "${POMP_LLVM_CONFIG}" --link-static --libs ${ARG_COMPONENTS}
                    OUTPUT_VARIABLE llvm_libs OUTPUT_STRIP_TRAILING_WHITESPACE
                    RESULT_VARIABLE status ERROR_QUIET)
    separate_arguments(llvm_libs NATIVE_COMMAND "${llvm_libs}")
    # Polly is listed with `all` but not shipped as a static library; no tool here needs it.
    list(FILTER llvm_libs EXCLUDE REGEX "^-lPolly")
  endif()
  if(NOT status EQUAL 0 OR NOT llvm_libs OR (ARG_CLANG AND NOT clang_libs))
    message(STATUS "${target}: Clang's or LLVM's static libraries not found: linked with the "
                   "shared ones (slower start)")
    return()
  endif()
  set(archives)
  foreach(archive IN LISTS ARG_ARCHIVES)
    if(TARGET ${archive})
      list(APPEND archives "$<TARGET_FILE:${archive}>")
    else()
      list(APPEND archives "${archive}")
    endif()
  endforeach()
  target_link_libraries(${target} PRIVATE -Wl,--as-needed -Wl,--start-group ${archives}
                        ${clang_libs} -L${LLVM_LIBRARY_DIR} ${llvm_libs} -Wl,--end-group
                        ${CMAKE_DL_LIBS} z)
  if(POMP_ZSTD_LIBRARY)
    target_link_libraries(${target} PRIVATE ${POMP_ZSTD_LIBRARY})
  endif()
  target_link_options(${target} PRIVATE -no-pie $<$<BOOL:${POMP_LD_LLD}>:-fuse-ld=lld>)
endfunction()
