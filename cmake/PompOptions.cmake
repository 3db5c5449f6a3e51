# Warning and sanitizer flags shared by every target of the project.

add_compile_options(-Wall -Wextra)
if(POMP_WERROR)
  add_compile_options(-Werror)
  # g++ 12 -O2 inlines Clang's ExternalASTSource.h and reports a null `this` there
  # (-Wnonnull) although the header is a system header: a false positive in code that is not ours.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-Wno-error=nonnull>)
  endif()
endif()

if(POMP_SANITIZE)
  set(POMP_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined
                           -fno-omit-frame-pointer)
  add_compile_options(${POMP_SANITIZER_FLAGS})
  add_link_options(${POMP_SANITIZER_FLAGS})
endif()
