# Every dependency is a Debian package (scripts/install-deps.sh installs them).
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(BLAS REQUIRED)
find_package(LAPACK REQUIRED)
find_library(QEVOLVE_LAPACKE_LIB lapacke REQUIRED)
find_path(QEVOLVE_LAPACKE_INCLUDE lapacke.h REQUIRED)
find_package(HDF5 REQUIRED COMPONENTS C)
find_package(yaml-cpp REQUIRED)
find_package(CLI11 REQUIRED)
find_package(OpenMP REQUIRED COMPONENTS CXX)
find_path(QEVOLVE_LBFGSPP_INCLUDE LBFGS.h PATH_SUFFIXES LBFGSpp REQUIRED)

# Eigen hands dense products and factorisations to OpenBLAS / LAPACKE.
add_library(qevolve_linalg INTERFACE)
target_link_libraries(qevolve_linalg INTERFACE Eigen3::Eigen ${QEVOLVE_LAPACKE_LIB}
                                               ${LAPACK_LIBRARIES} ${BLAS_LIBRARIES})
target_include_directories(qevolve_linalg SYSTEM INTERFACE ${QEVOLVE_LAPACKE_INCLUDE})
target_compile_definitions(qevolve_linalg INTERFACE EIGEN_USE_BLAS EIGEN_USE_LAPACKE
                                                    EIGEN_MPL2_ONLY)

# --- MPI -------------------------------------------------------------------
set(QEVOLVE_HAVE_MPI OFF)
if(NOT QEVOLVE_ENABLE_MPI STREQUAL "OFF")
  find_package(MPI COMPONENTS CXX QUIET)
  if(MPI_CXX_FOUND)
    set(QEVOLVE_HAVE_MPI ON)
  elseif(QEVOLVE_ENABLE_MPI STREQUAL "ON")
    message(FATAL_ERROR "QEVOLVE_ENABLE_MPI=ON but no MPI was found. "
                        "Install it with: apt-get install libopenmpi-dev openmpi-bin "
                        "(or configure with -DQEVOLVE_ENABLE_MPI=OFF).")
  endif()
endif()

# --- CUDA ------------------------------------------------------------------
set(QEVOLVE_HAVE_CUDA OFF)
if(NOT QEVOLVE_ENABLE_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    find_package(CUDAToolkit QUIET)
    if(CUDAToolkit_FOUND AND TARGET CUDA::cublas AND TARGET CUDA::cusolver)
      set(QEVOLVE_HAVE_CUDA ON)
    elseif(QEVOLVE_ENABLE_CUDA STREQUAL "ON")
      message(FATAL_ERROR "QEVOLVE_ENABLE_CUDA=ON but the CUDA toolkit libraries (cudart, cuBLAS, "
                          "cuSOLVER) were not found next to ${CMAKE_CUDA_COMPILER} "
                          "(or configure with -DQEVOLVE_ENABLE_CUDA=OFF).")
    endif()
  elseif(QEVOLVE_ENABLE_CUDA STREQUAL "ON")
    message(FATAL_ERROR "QEVOLVE_ENABLE_CUDA=ON but no CUDA compiler (nvcc) was found on PATH "
                        "or in CMAKE_CUDA_COMPILER (or configure with -DQEVOLVE_ENABLE_CUDA=OFF).")
  endif()
endif()
if(QEVOLVE_HAVE_CUDA)
  # One architecture unless the user chooses (-DCMAKE_CUDA_ARCHITECTURES=90, "80;90", native):
  # sm_80 code runs on A100 and, through the driver's JIT of the embedded PTX, on later GPUs,
  # and keeps the CUDA part of a CI build short.
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES 80)
  endif()
  enable_language(CUDA)
  # The kernels (.cu) need C++17 only; CMake 3.25 does not know nvcc's C++20 flag.
  set(CMAKE_CUDA_STANDARD 17)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
endif()

# --- Python with h5py/numpy: only for tests that read our HDF5 output --------
find_program(QEVOLVE_PYTHON NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
