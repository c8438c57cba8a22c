/* The live API over a loopback socket, served by the caller's loop and
 * then by the server thread as the explorer has it: the login is
 * answered, news and snapshots follow the stream, commands reach the
 * engine, and the session written out loads to the same numbers. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tests/check.h"
#include "tests/model_checks.h"
#include "loaders/loaders.h"
#include "live/address.h"
#include "live/xs.h"
#include "base/util.h"

static void pump(struct xs *l, int rounds)
{
	struct pollfd fds[XS_MAX_PEERS + 1];
	for (int i = 0; i < rounds; i++) {
		size_t n = xs_poll_fds(l, fds, ARRAY_LEN(fds));
		poll(fds, n, 20);
		xs_handle(l, fds, n);
	}
}

static int dial(int port)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons((uint16_t)port) };
	inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
	CHECK(connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0);
	return fd;
}

static void send_text(int fd, const char *text)
{
	CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
}

static void received(int fd, const char *want)
{
	char buf[256];
	struct pollfd in = { .fd = fd, .events = POLLIN };
	poll(&in, 1, 5000); /* a server thread answers in its own time */
	ssize_t got = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
	buf[got > 0 ? got : 0] = '\0';
	CHECK_MSG(!strcmp(buf, want), "engine got '%s'", buf);
}

/* Engine 0's session written by w loads, both files, with f's self. */
static void check_written(struct xs *l, double f_self)
{
	char base[] = "/tmp/wprof-live-XXXXXX", err[256];
	int tmp = mkstemp(base);
	close(tmp);
	CHECK_MSG(xs_engine_write(l, 0, base, err, sizeof(err)), "%s", err);
	static const char *const exts[] = { ".xsbug", ".cpuprofile" };
	for (size_t i = 0; i < ARRAY_LEN(exts); i++) {
		char path[64];
		snprintf(path, sizeof(path), "%s%s", base, exts[i]);
		struct load_error lerr;
		struct load_options opt = { .session = -1 };
		struct model m;
		CHECK_MSG(load_file(path, &opt, &m, &lerr, NULL), "%s", path);
		CHECK_CLOSE(nodes_self(&m, "f", 0), f_self, path);
		model_free(&m);
		unlink(path);
	}
	unlink(base);
}

/* Up to 5 s for the server thread to have read what was sent. */
#define WAIT_FOR(cond)                                                  \
	for (int waited = 0; !(cond) && waited < 500; waited++)         \
		usleep(10000)

/* A refresh as the live view takes it: the new model replaces the one
 * shown, or the one shown gets new numbers. */
static enum live_refresh refresh(struct xs *l, struct xsbug_follower *f,
				 struct model models[2], int *shown)
{
	int next = *shown < 0 ? 0 : 1 - *shown;
	enum live_refresh got = xs_engine_refresh(
		l, 0, f, *shown < 0 ? NULL : &models[*shown], &models[next]);
	if (got == LIVE_NEW_MODEL) {
		if (*shown >= 0)
			model_free(&models[*shown]);
		*shown = next;
	}
	return got;
}

/* The explorer's way: the server thread reads while this one refreshes
 * between the engine's messages.  10 000 samples of f, 1 µs apart, the
 * last until the stop 1 µs later: f 10 000 µs, the profile 10 001 µs. */
static void test_served(void)
{
	struct xs *l = xs_new(NULL);
	char err[256];
	CHECK(xs_listen(l, "127.0.0.1:0", err, sizeof(err)));
	CHECK(xs_serve(l, err, sizeof(err)));
	int engine = dial(xs_listen_port(l));
	send_text(engine, "\r\n<xsbug><login name=\"eng\" value=\"v\"/></xsbug>\r\n");
	WAIT_FOR(xs_engine_count(l) == 1);
	CHECK(xs_engine_count(l) == 1);
	received(engine, "\r\n<start-profiling/>\r\n\r\n<go/>\r\n");
	send_text(engine, "\r\n<xsbug><pt name=\"start\" value=\"@0000000000000000\"/>"
			  "</xsbug>\r\n<xsbug><pr name=\"f\" value=\"5\"/></xsbug>");
	WAIT_FOR(xs_engine_profiling(l, 0));
	CHECK(xs_engine_profiling(l, 0));
	struct xsbug_follower *follower = xsbug_follower_new();
	struct model models[2];
	int shown = -1;
	size_t in_place = 0;
	for (int batch = 0; batch < 50; batch++) {
		char text[2048] = "<xsbug><ps>1,5,0";
		for (int i = 1; i < 200; i++)
			strcat(text, ".1,5,0");
		strcat(text, "</ps></xsbug>");
		send_text(engine, text);
		WAIT_FOR(xs_engine_take_news(l, 0));
		in_place += refresh(l, follower, models, &shown) == LIVE_NEW_VALUES;
	}
	CHECK(xs_engine_stop_profiling(l, 0)); /* wakes the server to send it */
	received(engine, "\r\n<stop-profiling/>\r\n");
	send_text(engine, "<xsbug><pt name=\"stop\" value=\"@0000000000002711\"/></xsbug>");
	close(engine);
	WAIT_FOR(!xs_engine_connected(l, 0));
	CHECK(!xs_engine_connected(l, 0));
	CHECK(!xs_engine_profiling(l, 0));
	in_place += refresh(l, follower, models, &shown) == LIVE_NEW_VALUES;
	CHECK_MSG(in_place > 0, "no refresh in place");
	CHECK(shown >= 0);
	if (shown >= 0) {
		CHECK_CLOSE(nodes_self(&models[shown], "f", 0), 10000, "served: f");
		CHECK_CLOSE(models[shown].duration, 10001, "served: duration");
		model_free(&models[shown]);
	}
	xsbug_follower_free(follower);
	xs_free(l);
}

/* A `debugger` statement: the engine gets <go/> and nothing else, is
 * suspended at its place until it sends anything else; its log lines are
 * kept, the last LIVE_LOG_LINES of them; p is asked once and shown as
 * requested until the engine confirms; a profile stopped at a break ends
 * there (start 0, a sample of f 16 µs in, suspend at 0x20, stop 1 s later:
 * 32 µs, not 1 s; f 16 µs under either duration rule), and stays the one
 * shown and written when a new profile starts without samples. */
static void test_breaks_and_logs(void)
{
	struct xs *l = xs_new(NULL);
	char err[256], where[300], text[1500];
	CHECK(xs_listen(l, "127.0.0.1:0", err, sizeof(err)));
	int engine = dial(xs_listen_port(l));
	send_text(engine, "\r\n<xsbug><login name=\"eng\" value=\"v\"/></xsbug>\r\n"
			  "\r\n<xsbug><pt name=\"start\" value=\"@0000000000000000\"/>"
			  "</xsbug>\r\n<xsbug><pr name=\"f\" value=\"5\"/></xsbug>"
			  "<xsbug><ps>G,5,0</ps></xsbug>\r\n");
	pump(l, 3);
	received(engine, "\r\n<start-profiling/>\r\n\r\n<go/>\r\n");
	CHECK(!xs_engine_suspended_at(l, 0, where, sizeof(where)));
	send_text(engine, "\r\n<xsbug><pt name=\"suspend\" value=\"@0000000000000020\"/>"
			  "</xsbug>\r\n\r\n<xsbug><frames/><break path=\"a&amp;b.js\" "
			  "line=\"6\"># Break: debugger!\n</break></xsbug>\r\n");
	pump(l, 3);
	received(engine, "\r\n<go/>\r\n");
	CHECK(xs_engine_suspended_at(l, 0, where, sizeof(where)));
	CHECK_MSG(!strcmp(where, "a&b.js:6"), "suspended at '%s'", where);
	CHECK(xs_engine_breaks(l, 0, text, sizeof(text)) == 1);
	CHECK_MSG(!strcmp(text, "a&b.js:6 (Break: debugger!)"), "break '%s'", text);

	/* p while it sits there: asked once, however often pressed. */
	CHECK(xs_engine_stop_profiling(l, 0));
	CHECK(xs_engine_stop_profiling(l, 0));
	CHECK(xs_engine_request(l, 0) == XS_REQUEST_STOP);
	pump(l, 2);
	received(engine, "\r\n<stop-profiling/>\r\n");
	send_text(engine, "\r\n<xsbug><pt name=\"stop\" value=\"@0000000000100020\"/>"
			  "</xsbug>\r\n");
	pump(l, 3);
	CHECK(xs_engine_request(l, 0) == XS_REQUEST_NONE);
	CHECK(!xs_engine_suspended_at(l, 0, where, sizeof(where)));
	/* p again starts a profile with no sample yet: the one with data
	 * stays shown and is the one written. */
	CHECK(xs_engine_start_profiling(l, 0));
	pump(l, 2);
	received(engine, "\r\n<start-profiling/>\r\n");
	send_text(engine, "\r\n<xsbug><pt name=\"start\" value=\"@0000000000200000\"/>"
			  "</xsbug>\r\n");
	pump(l, 3);
	CHECK(xs_engine_request(l, 0) == XS_REQUEST_NONE);
	struct xsbug_follower *follower = xsbug_follower_new();
	struct model m;
	CHECK(xs_engine_refresh(l, 0, follower, NULL, &m) == LIVE_NEW_MODEL);
	CHECK_CLOSE(m.duration, 32, "stopped at a break: to the suspend");
	CHECK_CLOSE(nodes_self(&m, "f", 0), 16, "f from its sample to the suspend");
	model_free(&m);
	xsbug_follower_free(follower);
	check_written(l, 16);

	/* 1005 log lines, entities decoded, the place when named. */
	for (int i = 0; i < 1005; i++) {
		char line[200];
		snprintf(line, sizeof(line), "\r\n<xsbug><log>line %d &#60;&#38;&#10;"
			 "</log></xsbug>\r\n", i);
		send_text(engine, line);
	}
	send_text(engine, "\r\n<xsbug><log path=\"m.js\" line=\"12\"># Exception: "
			  "throw!\n</log></xsbug>\r\n");
	pump(l, 5);
	CHECK(xs_engine_log_count(l, 0) == 1006);
	double when;
	CHECK(!xs_engine_log_line(l, 0, 5, &when, text, sizeof(text)));
	CHECK(xs_engine_log_line(l, 0, 6, &when, text, sizeof(text)));
	CHECK_MSG(!strcmp(text, "line 6 <&"), "log '%s'", text);
	CHECK(when > 1e9);
	CHECK(xs_engine_log_line(l, 0, 1005, &when, text, sizeof(text)));
	CHECK_MSG(!strcmp(text, "m.js:12: Exception: throw!"), "log '%s'", text);
	CHECK(!xs_engine_log_line(l, 0, 1006, &when, text, sizeof(text)));
	CHECK(!xs_engine_streams_nothing(l, 0));

	/* Still connected: xs_free writes what is queued before closing. */
	CHECK(xs_engines_connected(l) == 1);
	close(engine);
	xs_free(l);
}

/* An engine that logs in and starts no profile (an xst built with
 * mxProfile) is told apart once it leaves. */
static void test_streams_nothing(void)
{
	struct xs *l = xs_new(NULL);
	char err[256];
	CHECK(xs_listen(l, "127.0.0.1:0", err, sizeof(err)));
	int engine = dial(xs_listen_port(l));
	send_text(engine, "\r\n<xsbug><login name=\"xst\" value=\"v\"/></xsbug>\r\n");
	pump(l, 3);
	CHECK(xs_engine_count(l) == 1);
	CHECK(!xs_engine_streams_nothing(l, 0)); /* it has just logged in */
	close(engine);
	pump(l, 3);
	CHECK(xs_engine_streams_nothing(l, 0));
	CHECK(xs_engines_connected(l) == 0);
	xs_free(l);
}

/* One reading of "[HOST:]PORT" for every source: brackets for IPv6, a
 * bare port on the default host, ports within 1…65535 (0 only to bind). */
static bool split(const char *address, const char *default_port, bool any_port,
		  const char *want_host, const char *want_port)
{
	char host[64], port[8], err[128];
	if (!net_split_address(address, "127.0.0.1", default_port, any_port, host,
			       sizeof(host), port, sizeof(port), err, sizeof(err)))
		return !want_host;
	return want_host && !strcmp(host, want_host) && !strcmp(port, want_port);
}

static void test_address(void)
{
	CHECK(split("[::1]:9229", NULL, false, "::1", "9229"));
	CHECK(split("9229", NULL, false, "127.0.0.1", "9229"));
	CHECK(split("localhost:5002", NULL, false, "localhost", "5002"));
	CHECK(split("::1:5002", NULL, false, "::1", "5002"));
	CHECK(split("[::1]", "9229", false, "::1", "9229"));
	CHECK(split("host", "9229", false, "host", "9229"));
	CHECK(split("127.0.0.1:0", NULL, true, "127.0.0.1", "0"));
	CHECK(split("127.0.0.1:005002", NULL, false, "127.0.0.1", "005002"));
	CHECK(split("[::1]", NULL, false, NULL, NULL));
	CHECK(split("host", NULL, false, NULL, NULL));
	CHECK(split("127.0.0.1:0", NULL, false, NULL, NULL));
	CHECK(split("127.0.0.1:65536", NULL, true, NULL, NULL));
	CHECK(split("127.0.0.1:notaport", NULL, true, NULL, NULL));
	CHECK(split("[::1", "9229", false, NULL, NULL));
	CHECK(split(":5002", NULL, false, NULL, NULL));
}

int main(void)
{
	test_address();
	struct xs *l = xs_new(NULL);
	char err[256];
	CHECK(!xs_listen(l, "127.0.0.1:notaport", err, sizeof(err)));
	CHECK(xs_listen(l, "127.0.0.1:0", err, sizeof(err)));
	int engine = dial(xs_listen_port(l));
	int silent = dial(xs_listen_port(l));
	pump(l, 3);
	CHECK(xs_engine_count(l) == 0); /* nobody logged in yet */

	send_text(engine, "\r\n<xsbug><login name=\"eng\" value=\"v\"/></xsbug>\r\n");
	pump(l, 3);
	CHECK(xs_engine_count(l) == 1);
	CHECK(xs_engine_connected(l, 0));
	CHECK(!strncmp(xs_engine_name(l, 0), "eng@127.0.0.1:", 14));
	received(engine, "\r\n<start-profiling/>\r\n\r\n<go/>\r\n");
	CHECK(xs_engine_take_news(l, 0));
	CHECK(!xs_engine_take_news(l, 0));
	struct xsbug_follower *follower = xsbug_follower_new();
	struct model m, unused;
	/* no profile started */
	CHECK(xs_engine_refresh(l, 0, follower, NULL, &m) == LIVE_NO_PROFILE);

	/* Split inside a number: "A" + "," ... the samples last their deltas,
	 * 1 and 10. */
	send_text(engine, "\r\n<xsbug><pt name=\"start\" value=\"@0000000000000000\"/>"
			  "</xsbug>\r\n<xsbug><pr name=\"f\" value=\"5\"/></xsbug>"
			  "<xsbug><ps>1,5,0.");
	pump(l, 3);
	send_text(engine, "A,5,0</ps></xsbug>\r\n");
	pump(l, 3);
	CHECK(xs_engine_take_news(l, 0));
	CHECK(xs_engine_refresh(l, 0, follower, NULL, &m) == LIVE_NEW_MODEL);
	CHECK_CLOSE(nodes_self(&m, "f", 0), 11, "running");

	CHECK(xs_engine_stop_profiling(l, 0));
	pump(l, 2);
	received(engine, "\r\n<stop-profiling/>\r\n");
	send_text(engine, "<xsbug><pt name=\"stop\" value=\"@000000000000000F\"/></xsbug>");
	pump(l, 3);
	/* No new stack: the same model gets the new numbers. */
	CHECK(xs_engine_refresh(l, 0, follower, &m, &unused) == LIVE_NEW_VALUES);
	CHECK_CLOSE(nodes_self(&m, "f", 0), 11, "stopped");
	CHECK_CLOSE(m.duration, 15, "duration");
	model_free(&m);

	/* The session written out loads to the same numbers. */
	check_written(l, 11);

	/* Disconnected: the engine stays, with what it sent. */
	close(engine);
	close(silent);
	pump(l, 3);
	CHECK(xs_engine_count(l) == 1);
	CHECK(!xs_engine_connected(l, 0));
	CHECK(!xs_engine_start_profiling(l, 0));
	xsbug_follower_free(follower);
	xs_free(l);
	test_served();
	test_breaks_and_logs();
	test_streams_nothing();
	return check_done();
}
