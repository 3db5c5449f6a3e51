# Warning and sanitizer flags shared by every target of the project.

add_compile_options(-Wall -Wextra)
if(POMP_WERROR)
  add_compile_options(-Werror)
endif()

if(POMP_SANITIZE)
  set(POMP_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined
                           -fno-omit-frame-pointer)
  add_compile_options(${POMP_SANITIZER_FLAGS})
  add_link_options(${POMP_SANITIZER_FLAGS})
endif()
