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
  # GCC 12 reports its own AVX-512 intrinsics (`__m512d __Y = __Y;` in avx512fintrin.h, inlined
  # through Eigen's packet code) as uninitialised: GCC bug 105593, fixed in GCC 13. On an AVX-512
  # machine that is hundreds of false warnings per build, so they are off for this combination
  # only; the sanitizer build (no -march=native) keeps both warnings.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(qevolve_options INTERFACE
      $<$<COMPILE_LANGUAGE:CXX>:-Wno-maybe-uninitialized -Wno-uninitialized>)
  endif()
endif()
if(QEVOLVE_SANITIZE)
  # UBSan without three checks that AddressSanitizer already covers here: `null` (a null
  # dereference is an ASan SEGV report), `object-size` (a static bound for the accesses ASan
  # checks exactly) and `alignment` (x86-64 tolerates misaligned scalars; a misaligned aligned
  # SIMD load faults, which ASan reports). Their instrumentation of every Eigen access was
  # ~25 % of this build's compile time (CI has two cores and a time budget); the other checks
  # (signed overflow, shifts, bounds, vptr, enum/bool values, ...) stay.
  target_compile_options(qevolve_options INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-fsanitize=address,undefined -fno-omit-frame-pointer
                              -fno-sanitize=null,object-size,alignment
                              -fno-sanitize-recover=all>)
  target_link_options(qevolve_options INTERFACE -fsanitize=address,undefined)
endif()
# OpenMP: threads over column blocks and `omp simd` in the kernels.
target_link_libraries(qevolve_options INTERFACE OpenMP::OpenMP_CXX)
