/* --live URL without the network: the window URL, and windows folded
 * into one session (numbers worked by hand from the folded stacks). */
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "tests/model_checks.h"
#include "loaders/loaders.h"
#include "input/fetch.h"
#include "live/http.h"
#include "transform/timeline.h"
#include "base/util.h"

static void check_url(const char *url, unsigned seconds, const char *want)
{
	char *got = http_live_window_url(url, seconds);
	CHECK_MSG(!strcmp(got, want), "%s -> %s, want %s", url, got, want);
	free(got);
}

static void test_urls(void)
{
	check_url("http://h:6060/debug/pprof/profile", 5,
		  "http://h:6060/debug/pprof/profile?seconds=5");
	check_url("http://h/debug/pprof/profile?seconds=30", 2,
		  "http://h/debug/pprof/profile?seconds=2");
	check_url("http://h/p?debug=0&seconds=30&x=1", 7, "http://h/p?debug=0&seconds=7&x=1");
	check_url("http://h/p?xseconds=3", 1, "http://h/p?xseconds=3&seconds=1");
	CHECK(fetch_url_seconds("http://h/p?seconds=30") == 30);
	CHECK(fetch_url_seconds("http://h/p?a=1&seconds=4&b") == 4);
	CHECK(fetch_url_seconds("http://h/p?xseconds=4") == -1);
	CHECK(fetch_url_seconds("http://h/p") == -1);
	CHECK(fetch_is_url("HTTPS://h/x") && fetch_is_url("http://h"));
	CHECK(!fetch_is_url("ftp://h/x") && !fetch_is_url("profile.pb.gz"));
}

static void add_window(struct http_session *s, const char *folded)
{
	struct load_options opt = { .session = -1 };
	struct load_error err;
	GROW(s->windows, s->windows_cap, s->nwindows + 1);
	CHECK(load_memory(folded, strlen(folded), "w", &opt, &s->windows[s->nwindows], &err));
	s->nwindows++;
}

static void test_fold(void)
{
	struct http_session s;
	http_session_init(&s, "http://h/debug/pprof/profile", 1);
	add_window(&s, "main;work;a 3\nmain;work;b 1\n");
	add_window(&s, "main;work;a 2\nmain;c 4\n");
	struct model m;
	http_session_model(&s, &m);
	CHECK(nodes_self(&m, "a", 0) == 5);
	CHECK(nodes_self(&m, "b", 0) == 1);
	CHECK(nodes_self(&m, "c", 0) == 4);
	/* One pseudo-sample per stack per window, windows in order: the
	 * first window's two stacks (4 in all), then the second's (6). */
	CHECK(m.nsamples == 4);
	double first = 0, second = 0;
	for (size_t i = 0; i < m.nsamples; i++)
		*(i < 2 ? &first : &second) += m.sample_duration[i];
	CHECK(first == 4 && second == 6);
	/* Each window's first sample, for the strip: a cell a window, the
	 * newest at the right (an empty cell left of them), or only the
	 * newest when there is one cell. */
	CHECK(m.live.nwindows == 2 && m.live.window_first[0] == 0 && m.live.window_first[1] == 2);
	struct timeline t;
	timeline_build_windows(&t, &m, 3);
	CHECK(t.first_sample[0] == 0 && t.first_sample[1] == 0 && t.first_sample[2] == 2 &&
	      t.first_sample[3] == 4);
	double bin[3] = { 0 };
	for (size_t b = 0; b < 3; b++)
		for (int k = 0; k < KIND_COUNT; k++)
			bin[b] += t.value[b * KIND_COUNT + k];
	CHECK(bin[0] == 0 && bin[1] == 4 && bin[2] == 6 && t.span == 10);
	timeline_free(&t);
	timeline_build_windows(&t, &m, 1);
	CHECK(t.first_sample[0] == 2 && t.first_sample[1] == 4 && t.span == 6);
	timeline_free(&t);
	/* a is the same node in both windows: stacks merge. */
	size_t nodes_named_a = 0;
	for (size_t n = 0; n < m.nnodes; n++)
		nodes_named_a += !strcmp(model_str(&m, m.frames[m.nodes[n].frame].name), "a");
	CHECK(nodes_named_a == 1);
	model_free(&m);
	http_session_free(&s);
}

int main(void)
{
	test_urls();
	test_fold();
	return check_done();
}
