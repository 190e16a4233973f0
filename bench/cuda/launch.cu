// launch.cu - the CUDA anchor for xwg-launch-bench: what a cooperative
// launch costs over a plain one, on the same GPU, in the rows and units
// of bench/launch_bench.c (wall time on the host, per launch, over COUNT
// launches; median of 5 repetitions, each running every row in turn):
//   cuda/plain/readback        cudaLaunchKernel, a stream synchronize and
//                              a 4-byte copy back (what xwg's launch with
//                              its status read is compared with);
//   cuda/cooperative/readback  the same through cudaLaunchCooperativeKernel;
//   cuda/plain/chained         plain launches back to back, a synchronize
//                              after every 32;
//   cuda/cooperative/chained   the same, cooperative;
//   requests/cuda-cooperative  one cooperative launch of a kernel with 10
//                              grid.sync() per request, chained as above;
//   requests/cuda-plain        the same work as 11 plain launches.
// The kernels run 256 threads per block, as many blocks as can be
// co-resident (the cooperative launch's limit), as xwg-launch-bench runs
// the groups that discovery finds. Prints CSV rows in xwg-launch-bench's
// columns (label,device,row,local_size,groups,us).
//
// Usage: launch [COUNT [REQUESTS]]   (defaults 1000 and 2000)
#include <cooperative_groups.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "cuda_timer.h"

namespace cg = cooperative_groups;

#define THREADS 256
#define REPS 5
#define CHAIN 32
#define SYNCS_PER_REQUEST 10

__global__ void empty(unsigned *sink)
{
    if (blockIdx.x == 0 && threadIdx.x == 0)
        sink[0] += 1;
}

__global__ void request(unsigned *sink)
{
    cg::grid_group grid = cg::this_grid();
    for (int i = 0; i < SYNCS_PER_REQUEST; i++)
        grid.sync();
    if (blockIdx.x == 0 && threadIdx.x == 0)
        sink[0] += 1;
}

enum row_id {
    PLAIN_READBACK, COOP_READBACK, PLAIN_CHAINED, COOP_CHAINED, REQ_COOP,
    REQ_PLAIN, ROWS
};
static const char *const row_names[ROWS] = {
    "cuda/plain/readback",  "cuda/cooperative/readback",
    "cuda/plain/chained",   "cuda/cooperative/chained",
    "requests/cuda-cooperative", "requests/cuda-plain"};

static double now_us()
{
    using namespace std::chrono;
    return duration<double, std::micro>(
               steady_clock::now().time_since_epoch())
        .count();
}

struct shape {
    int blocks;
    unsigned *sink;
    cudaStream_t stream;
};

static void launch(const shape &s, void *kernel, bool cooperative)
{
    void *args[] = {(void *)&s.sink};
    if (cooperative)
        CHECK(cudaLaunchCooperativeKernel(kernel, s.blocks, THREADS, args, 0,
                                          s.stream));
    else
        CHECK(cudaLaunchKernel(kernel, s.blocks, THREADS, args, 0, s.stream));
}

// `n` launches, each waited for and its 4-byte result copied back.
static double readback_us(const shape &s, unsigned n, bool cooperative)
{
    CHECK(cudaStreamSynchronize(s.stream));
    double start = now_us();
    for (unsigned i = 0; i < n; i++) {
        unsigned flag;
        launch(s, (void *)empty, cooperative);
        CHECK(cudaStreamSynchronize(s.stream));
        CHECK(cudaMemcpy(&flag, s.sink, sizeof flag, cudaMemcpyDeviceToHost));
    }
    return now_us() - start;
}

// `n` launches of kernel, `per` back to back between synchronizes.
static double chained_us(const shape &s, void *kernel, unsigned n,
                         unsigned per, bool cooperative)
{
    CHECK(cudaStreamSynchronize(s.stream));
    double start = now_us();
    for (unsigned i = 0; i < n; i++) {
        launch(s, kernel, cooperative);
        if ((i + 1) % per == 0)
            CHECK(cudaStreamSynchronize(s.stream));
    }
    CHECK(cudaStreamSynchronize(s.stream));
    return now_us() - start;
}

static void repetition(const shape &s, unsigned count, unsigned requests,
                       double us[ROWS])
{
    us[PLAIN_READBACK] = readback_us(s, count, false) / count;
    us[COOP_READBACK] = readback_us(s, count, true) / count;
    us[PLAIN_CHAINED] =
        chained_us(s, (void *)empty, count, CHAIN, false) / count;
    us[COOP_CHAINED] = chained_us(s, (void *)empty, count, CHAIN, true) / count;
    us[REQ_COOP] =
        chained_us(s, (void *)request, requests, CHAIN, true) / requests;
    us[REQ_PLAIN] = chained_us(s, (void *)empty,
                               requests * (SYNCS_PER_REQUEST + 1),
                               CHAIN * (SYNCS_PER_REQUEST + 1), false) /
                    requests;
}

int main(int argc, char **argv)
{
    unsigned count = argc > 1 ? (unsigned)atoi(argv[1]) : 1000;
    unsigned requests = argc > 2 ? (unsigned)atoi(argv[2]) : 2000;
    if (count == 0 || requests == 0) {
        fprintf(stderr, "launch: COUNT and REQUESTS must be positive\n");
        return 2;
    }
    int sms = 0, per_sm = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, request,
                                                        THREADS, 0));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    shape s;
    s.blocks = per_sm * sms;
    CHECK(cudaMalloc(&s.sink, 64));
    CHECK(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking));
    double warm[ROWS], us[REPS][ROWS];
    repetition(s, count, requests, warm);
    for (int r = 0; r < REPS; r++)
        repetition(s, count, requests, us[r]);
    double median[ROWS];
    for (int i = 0; i < ROWS; i++) {
        double col[REPS];
        for (int r = 0; r < REPS; r++)
            col[r] = us[r][i];
        std::sort(col, col + REPS);
        median[i] = col[REPS / 2];
        printf("cuda,\"%s\",%s,%d,%d,%.4f\n", prop.name, row_names[i],
               THREADS, s.blocks, median[i]);
    }
    fprintf(stderr,
            "launch: cooperative %.2f x plain with a read-back, %.2f x "
            "chained; requests of %d grid.sync(): %.0f/s cooperative, "
            "%.0f/s as %d plain launches\n",
            median[COOP_READBACK] / median[PLAIN_READBACK],
            median[COOP_CHAINED] / median[PLAIN_CHAINED], SYNCS_PER_REQUEST,
            1e6 / median[REQ_COOP], 1e6 / median[REQ_PLAIN],
            SYNCS_PER_REQUEST + 1);
    CHECK(cudaStreamDestroy(s.stream));
    CHECK(cudaFree(s.sink));
    return 0;
}
