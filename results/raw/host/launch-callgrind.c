/* launch-callgrind.c - the probe behind docs/performance.md's instruction
 * counts of xwg's own host work per launch (9fda509, a28e5b6, 80246b1):
 * chains of 32 xwg_launch_async() calls, then their xwg_launch_finish(),
 * beside the same kernels enqueued plainly; C chains per pass, 3 passes.
 * Not part of the build: compile it against a build's static library and
 * count under callgrind on PoCL (the 2-core machine):
 *   cmake -S . -B build-rel -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
 *   cmake --build build-rel
 *   gcc -O2 -g -I include results/raw/host/launch-callgrind.c -o /tmp/enq \
 *       -L build-rel -l:libxwg.a -lOpenCL -lpthread -lm
 *   C=5 OCL_ICD_VENDORS=$PWD/build-dev/icd/pocl valgrind --tool=callgrind \
 *       --toggle-collect=xwg_launch_async --toggle-collect=xwg_launch_finish \
 *       --callgrind-out-file=/tmp/cg.out /tmp/enq
 *   callgrind_annotate --inclusive=yes /tmp/cg.out
 * xwg's own instructions per launch: xwg_launch_async's inclusive count
 * less clEnqueueNDRangeKernel's, clEnqueueWriteBuffer's and
 * clSetKernelArg's, over the 487 launches; the finish's likewise. */
#define CL_TARGET_OPENCL_VERSION 300
#include <xwg_barrier.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
static double now_us(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e6+t.tv_nsec/1e3;}
int main(int argc,char**argv){
  cl_platform_id pl; cl_device_id dev;
  if (xwg_find_device(argc>1?argv[1]:"",&pl,&dev)) return 1;
  cl_int err; cl_context cl=clCreateContext(NULL,1,&dev,NULL,NULL,&err);
  cl_command_queue q=clCreateCommandQueueWithProperties(cl,dev,NULL,&err);
  xwg_context*xc; if(xwg_context_create(cl,dev,NULL,&xc))return 2;
  cl_program prog;
  if(xwg_program_build(xc,"__kernel void x(__global uint*s, XWG_STATE){XWG_DISCOVER(); if(xwg_global_id()==0) s[0]+=1;}\n"
     "__kernel void e(__global uint*s){ if(get_global_id(0)==0) s[0]+=1;}\n"
     "__kernel void e2(__global uint*s, __global uint*t){ if(get_global_id(0)==0) s[0]+=1;}\n","",&prog,NULL))return 3;
  cl_kernel x=clCreateKernel(prog,"x",&err), e=clCreateKernel(prog,"e",&err), e2=clCreateKernel(prog,"e2",&err);
  cl_mem buf=clCreateBuffer(cl,CL_MEM_READ_WRITE,4096,NULL,&err);
  cl_mem parent=clCreateBuffer(cl,CL_MEM_READ_WRITE,1<<20,NULL,&err);
  cl_buffer_region r={1<<16,1<<16}; cl_mem sub=clCreateSubBuffer(parent,CL_MEM_READ_WRITE,CL_BUFFER_CREATE_TYPE_REGION,&r,&err);
  clSetKernelArg(x,0,sizeof buf,&buf); clSetKernelArg(e,0,sizeof buf,&buf); clSetKernelArg(e2,0,sizeof buf,&buf); clSetKernelArg(e2,1,sizeof sub,&sub);
  xwg_occupancy occ=XWG_OCCUPANCY_INIT; xwg_discover(xc,x,256,&occ);
  size_t l=256,g=occ.groups*l; printf("groups %u\n",occ.groups);
  xwg_launch_options lo=XWG_LAUNCH_OPTIONS_INIT; lo.groups=occ.groups; lo.skip_discovery=1;
  for(int pass=0;pass<3;pass++){
    double te=0,te2=0,tx=0,tb=0; int n=0;
    for(int c=0;c<(getenv("C")?atoi(getenv("C")):60);c++){
      double a=now_us(); for(int j=0;j<32;j++) clEnqueueNDRangeKernel(q,e,1,NULL,&g,&l,0,NULL,NULL); te+=now_us()-a; clFinish(q);
      a=now_us(); for(int j=0;j<32;j++) clEnqueueNDRangeKernel(q,e2,1,NULL,&g,&l,0,NULL,NULL); te2+=now_us()-a; clFinish(q);
      xwg_pending*pd[32];
      a=now_us(); for(int j=0;j<32;j++) xwg_launch_async(xc,q,x,256,&lo,&pd[j],NULL); tx+=now_us()-a;
      for(int j=0;j<32;j++) xwg_launch_finish(pd[j],NULL);
      /* x's state arg now points at the last launch's buffer */
      a=now_us(); for(int j=0;j<32;j++) clEnqueueNDRangeKernel(q,x,1,NULL,&g,&l,0,NULL,NULL); tb+=now_us()-a; clFinish(q);
      n+=32;
    }
    printf("enqueue us: plain 1 arg %.3f, plain 2 args (sub) %.3f, xwg_launch_async %.3f, xwg kernel bare %.3f\n",te/n,te2/n,tx/n,tb/n);
  }
  return 0;}
