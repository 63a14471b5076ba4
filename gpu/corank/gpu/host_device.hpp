// CORANK_HD marks functions shared by host code, host tests and kernels.
// Headers that use only this macro stay plain C++, so the host-only tests
// compile without nvcc.
#pragma once

#if defined(__CUDACC__)
#define CORANK_HD __host__ __device__
#define CORANK_HD_INLINE __host__ __device__ __forceinline__
#else
#define CORANK_HD
#define CORANK_HD_INLINE inline
#endif
