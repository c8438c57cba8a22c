/* Writes a large Chrome trace-event file for bench/trace-bench.
 *
 *   gen-trace [SIZE_MB] > big.json      (default 500: 10 million samples)
 *
 * Like a Performance-panel recording of a busy page: renderer, browser
 * and GPU processes with many threads; 24 of the threads have a CPU
 * profile (Profile + ProfileChunk events from the sampler thread, chunks
 * of 100 samples with their new nodes, "parent" links, per-sample lines,
 * deltas jittering around 100 µs with a few negative ones), among
 * millions of ordinary "X" task events that make up most of the bytes.
 * Samples scale with the size: 20 000 per MB.  Deterministic. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NPROFILES 24
#define NODES_PER_PROFILE 20000
#define CHUNK_SAMPLES 100
#define NTHREADS 60

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static uint32_t below(uint32_t n)
{
	return (uint32_t)(rnd() % n);
}

struct profile {
	int pid, tid;
	uint32_t parent[NODES_PER_PROFILE + 1]; /* by node id, 1 is (root) */
	uint32_t emitted;			/* nodes 1..emitted are out */
	double time;
};

static struct profile profiles[NPROFILES];
static const char *const workers[] = { "DedicatedWorker thread", "ThreadPoolForegroundWorker",
				       "Compositor" };

static int thread_pid(int t)
{
	return 1000 + t % 6;
}

/* Each process's first thread is its main thread. */
static const char *thread_name(int t)
{
	if (t >= 6)
		return workers[t % 3];
	return t == 0 ? "CrBrowserMain" : t == 4 ? "CrGpuMain" : "CrRendererMain";
}

static void metadata(void)
{
	static const char *const processes[] = { "Browser", "Renderer", "Renderer",
						 "Renderer", "GPU Process", "Renderer" };
	for (int p = 0; p < 6; p++)
		printf("{\"args\":{\"name\":\"%s\"},\"cat\":\"__metadata\",\"name\":\"process_name\","
		       "\"ph\":\"M\",\"pid\":%d,\"tid\":0,\"ts\":0},\n", processes[p], 1000 + p);
	for (int t = 0; t < NTHREADS; t++)
		printf("{\"args\":{\"name\":\"%s\"},\"cat\":\"__metadata\",\"name\":\"thread_name\","
		       "\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"ts\":0},\n",
		       thread_name(t), thread_pid(t), 100 + t);
}

static void start_profiles(void)
{
	for (int i = 0; i < NPROFILES; i++) {
		struct profile *p = &profiles[i];
		int t = i < 6 ? i : 6 + i * 2;
		p->pid = thread_pid(t);
		p->tid = 100 + t;
		p->time = 1e9;
		/* A tree whose deep nodes hang under recent ones: stacks of
		 * tens of frames, as real pages have. */
		for (uint32_t n = 2; n <= NODES_PER_PROFILE; n++)
			p->parent[n] = n < 8 ? 1 : n - 1 - below(n - 1 < 40 ? n - 1 : 40);
		printf("{\"args\":{\"data\":{\"startTime\":%.0f}},\"cat\":\"disabled-by-default-v8"
		       ".cpu_profiler\",\"id\":\"0x%x\",\"name\":\"Profile\",\"ph\":\"P\",\"pid\":%d,"
		       "\"tid\":%d,\"ts\":%.0f},\n", p->time, i + 1, p->pid, p->tid, p->time);
	}
}

static void chunk(int i, double ts)
{
	struct profile *p = &profiles[i];
	printf("{\"args\":{\"data\":{\"cpuProfile\":{\"nodes\":[");
	uint32_t upto = p->emitted + (p->emitted < NODES_PER_PROFILE ? 200 : 0);
	if (upto > NODES_PER_PROFILE)
		upto = NODES_PER_PROFILE;
	for (uint32_t n = p->emitted + 1; n <= upto; n++) {
		printf("%s{\"callFrame\":{\"codeType\":\"JS\",\"columnNumber\":%u,\"functionName\":"
		       "\"f%u\",\"lineNumber\":%u,\"scriptId\":%u,\"url\":\"https://example.com/"
		       "app/bundle%u.js\"},\"id\":%u", n > p->emitted + 1 ? "," : "",
		       n % 80, n % 3000, n % 900, 10 + n % 40, n % 40, n);
		if (n > 1)
			printf(",\"parent\":%u", p->parent[n]);
		printf("}");
	}
	p->emitted = upto;
	printf("],\"samples\":[");
	for (int s = 0; s < CHUNK_SAMPLES; s++)
		printf("%s%u", s ? "," : "", 1 + below(p->emitted));
	printf("]},\"lines\":[");
	for (int s = 0; s < CHUNK_SAMPLES; s++)
		printf("%s%u", s ? "," : "", below(400));
	printf("],\"timeDeltas\":[");
	for (int s = 0; s < CHUNK_SAMPLES; s++) {
		int delta = below(1000) == 0 ? -40 : 60 + (int)below(80);
		p->time += delta;
		printf("%s%d", s ? "," : "", delta);
	}
	printf("]}},\"cat\":\"disabled-by-default-v8.cpu_profiler\",\"id\":\"0x%x\","
	       "\"name\":\"ProfileChunk\",\"ph\":\"P\",\"pid\":%d,\"tid\":%d,\"ts\":%.0f},\n",
	       i + 1, p->pid, 900 + i, ts);
}

static double task_events(double ts, int count)
{
	static const char *const tasks[] = { "RunTask", "ThreadControllerImpl::RunTask",
					     "EventDispatch", "FunctionCall", "v8.execute",
					     "ParseHTML", "UpdateLayoutTree", "Paint" };
	for (int e = 0; e < count; e++) {
		int t = (int)below(NTHREADS);
		printf("{\"args\":{\"src_file\":\"../../base/task/sequence_manager/thread_controller.cc\","
		       "\"src_func\":\"RunTask\"},\"cat\":\"toplevel\",\"dur\":%u,\"name\":\"%s\","
		       "\"ph\":\"X\",\"pid\":%d,\"tdur\":%u,\"tid\":%d,\"ts\":%.0f,\"tts\":%u},\n",
		       below(5000), tasks[below(8)], thread_pid(t), below(4000), 100 + t, ts,
		       below(100000000));
		ts += below(20);
	}
	return ts;
}

int main(int argc, char **argv)
{
	double size_mb = argc > 1 ? atof(argv[1]) : 500;
	long chunks = (long)(size_mb * 20000 / CHUNK_SAMPLES);
	printf("{\"traceEvents\":[\n");
	metadata();
	start_profiles();
	double ts = 1e9 + 1000;
	for (long c = 0; c < chunks; c++) {
		int i = (int)(c % NPROFILES);
		/* The first renderer main thread is the busiest. */
		if (i >= 6 && below(3) == 0)
			i = 1;
		chunk(i, ts);
		ts = task_events(ts, 12);
	}
	printf("{\"args\":{},\"cat\":\"__metadata\",\"name\":\"trace_end\",\"ph\":\"M\","
	       "\"pid\":1000,\"tid\":100,\"ts\":%.0f}\n],\"metadata\":{\"source\":"
	       "\"bench/gen-trace.c\"}}\n", ts);
	return 0;
}
