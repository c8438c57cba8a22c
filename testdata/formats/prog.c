#include <stdio.h>
#include <stdlib.h>
static volatile double sink;
__attribute__((noinline)) static double leaf_a(int n){double s=0;for(int i=0;i<n;i++)s+=i*0.5;return s;}
__attribute__((noinline)) static double leaf_b(int n){double s=1;for(int i=0;i<n;i++)s*=1.0000001;return s;}
__attribute__((noinline)) static double mid(int n){return leaf_a(n)+leaf_b(n/2);}
__attribute__((noinline)) static double rec(int d,int n){ if(d==0) return leaf_a(n); return rec(d-1,n)+1;}
int main(int argc,char**argv){int reps=argc>1?atoi(argv[1]):200;for(int r=0;r<reps;r++){sink+=mid(200000);sink+=rec(3,100000);}printf("%f\n",sink);return 0;}
