// QEVOLVE_HOST_DEVICE marks functions that run on the CPU and, when compiled by nvcc, on the
// GPU too (the Kokkos / Qiskit Aer functor pattern): the same kernel code is exercised by the
// CPU test suite on machines without a GPU.
#pragma once

#if defined(__CUDACC__)
#define QEVOLVE_HOST_DEVICE __host__ __device__
#else
#define QEVOLVE_HOST_DEVICE
#endif
