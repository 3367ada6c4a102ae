# Warnings, sanitizers and tuning shared by every qevolve target.
add_library(qevolve_options INTERFACE)
target_compile_options(qevolve_options INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
                            -Wold-style-cast -Wcast-align -Woverloaded-virtual
                            -Wnull-dereference -Wdouble-promotion -Wformat=2
                            -Wimplicit-fallthrough>)
# Complex multiplication without the C99 inf/NaN recovery path (__muldc3): qevolve never
# multiplies infinities on purpose, and NaNs are still propagated and detected.
target_compile_options(qevolve_options INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-fcx-limited-range>)
if(QEVOLVE_NATIVE)
  target_compile_options(qevolve_options INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-march=native>)
endif()
if(QEVOLVE_SANITIZE)
  target_compile_options(qevolve_options INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-fsanitize=address,undefined -fno-omit-frame-pointer
                              -fno-sanitize-recover=all>)
  target_link_options(qevolve_options INTERFACE -fsanitize=address,undefined)
endif()
# OpenMP: threads over column blocks and `omp simd` in the kernels.
target_link_libraries(qevolve_options INTERFACE OpenMP::OpenMP_CXX)
