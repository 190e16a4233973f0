// occupancy.cu - the CUDA occupancy calculator's answer for a kernel of a
// given block size and dynamic shared memory, the reference that
// xwg-discover's OpenCL result on the same GPU is compared with.
// Prints CSV: local_size,local_mem,blocks_per_sm,sms,groups
//
// Usage: occupancy [LOCAL_MEM_BYTES ...]   (block sizes 64..1024)
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

// Like the OpenCL probe kernel: a trivial body, dynamic shared memory.
__global__ void probe(unsigned *out)
{
    extern __shared__ unsigned scratch[];
    if (threadIdx.x == 0) {
        scratch[0] = blockIdx.x;
        out[blockIdx.x] = scratch[0];
    }
}

int main(int argc, char **argv)
{
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    // Allow the largest dynamic shared memory we are asked about.
    cudaFuncSetAttribute(probe, cudaFuncAttributeMaxDynamicSharedMemorySize,
                         227 * 1024);
    printf("local_size,local_mem,blocks_per_sm,sms,groups\n");
    const int sizes[] = {64, 128, 256, 512, 1024};
    for (int a = 1; a < argc; a++) {
        size_t mem = strtoull(argv[a], nullptr, 10);
        for (int size : sizes) {
            int blocks = 0;
            cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                &blocks, probe, size, mem);
            if (e != cudaSuccess) {
                fprintf(stderr, "occupancy: %s\n", cudaGetErrorString(e));
                return 1;
            }
            printf("%d,%zu,%d,%d,%d\n", size, mem, blocks, sms, blocks * sms);
        }
    }
    return 0;
}
