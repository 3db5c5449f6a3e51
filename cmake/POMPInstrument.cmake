# pomp_instrument(<target> [FUNCTIONS] [OMPINST_ARGS <arg>...]): measure one target of a project
# with the POMP toolkit, leaving its other targets and the project's compilers alone
# (docs/OMPCC.md, "CMake: one target"). Installed with the CMake package; find_package(POMP)
# defines it.
#
# The target's C, C++ and Fortran sources are compiled through ompcc, ompc++ and ompfc as CMake's
# compiler launcher (ompcc --ompcc-launcher <the project's compiler> <arguments>): instrumented
# by ompinst, compiled by the project's own compiler with the target's flags. An executable or
# shared library is also linked through them (<LANG>_LINKER_LAUNCHER, CMake 3.21), which adds the
# handle initialisation (pomp-link), libpomp and the OpenMP runtime. A static or object library
# carries POMP::pomp in its link interface instead, so whatever links it gets libpomp; its
# handles are then bound on first use.
#
#   FUNCTIONS           also instrument function bodies (ompinst --functions)
#   OMPINST_ARGS <a>... more ompinst arguments (--function-filter=solve, --level=loop=none)
function(pomp_instrument target)
  cmake_parse_arguments(PARSE_ARGV 1 POMP_INSTRUMENT "FUNCTIONS" "" "OMPINST_ARGS")
  if(POMP_INSTRUMENT_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "pomp_instrument(${target}): unknown arguments "
                        "'${POMP_INSTRUMENT_UNPARSED_ARGUMENTS}' (FUNCTIONS, OMPINST_ARGS <arg>...)")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "pomp_instrument(${target}): no such target")
  endif()
  set(ompinst_args)
  if(POMP_INSTRUMENT_FUNCTIONS)
    list(APPEND ompinst_args "--ompinst-arg=--functions")
  endif()
  foreach(arg IN LISTS POMP_INSTRUMENT_OMPINST_ARGS)
    list(APPEND ompinst_args "--ompinst-arg=${arg}")
  endforeach()
  set(c_launcher "${POMP_OMPCC}" ${ompinst_args} --ompcc-launcher)
  set(cxx_launcher "${POMP_OMPCXX}" --ompc++ ${ompinst_args} --ompcc-launcher)
  set(fortran_launcher "${POMP_OMPFC}" ${ompinst_args} --ompcc-launcher)
  set_target_properties(${target} PROPERTIES
    C_COMPILER_LAUNCHER "${c_launcher}"
    CXX_COMPILER_LAUNCHER "${cxx_launcher}"
    Fortran_COMPILER_LAUNCHER "${fortran_launcher}")
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "EXECUTABLE" OR type STREQUAL "SHARED_LIBRARY" OR type STREQUAL "MODULE_LIBRARY")
    if(CMAKE_VERSION VERSION_LESS 3.21)
      message(FATAL_ERROR "pomp_instrument(${target}): linking through ompcc needs CMake 3.21 "
                          "(<LANG>_LINKER_LAUNCHER); this is ${CMAKE_VERSION}")
    endif()
    set_target_properties(${target} PROPERTIES
      C_LINKER_LAUNCHER "${c_launcher}"
      CXX_LINKER_LAUNCHER "${cxx_launcher}"
      Fortran_LINKER_LAUNCHER "${fortran_launcher}")
  else()
    set_property(TARGET ${target} APPEND PROPERTY INTERFACE_LINK_LIBRARIES POMP::pomp)
  endif()
endfunction()
