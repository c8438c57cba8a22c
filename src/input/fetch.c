/* Profiles over HTTP, with libcurl.  The request goes to the URL the
 * user named and nowhere else: only http and https, redirects only to
 * http or https, no proxy from the environment.  Everything a server
 * can do wrong ends in a message: an error status, an HTML page instead
 * of a profile, a body cut short or too large, no answer before the
 * timeout.  A gzipped body (Go serves profiles gzipped as plain bytes, no
 * Content-Encoding) is kept as it came: the input layer inflates it as it
 * does a file, under the same limit (loaders/input.h, --max-size). */
#include "fetch.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "base/escape.h"
#include "base/util.h"

struct body {
	uint8_t *data;
	size_t len, cap, limit;
	bool too_large;
};

static bool fail(char *err, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static bool fail(char *err, size_t cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, cap, fmt, ap);
	va_end(ap);
	return false;
}

bool fetch_is_url(const char *name)
{
	return !strncasecmp(name, "http://", 7) || !strncasecmp(name, "https://", 8);
}

long fetch_url_seconds(const char *url)
{
	const char *query = strchr(url, '?');
	for (const char *p = query; p; p = strchr(p + 1, '&')) {
		if (strncmp(p + 1, "seconds=", 8))
			continue;
		char *end;
		long n = strtol(p + 9, &end, 10);
		if (end != p + 9 && n >= 0 && (*end == '\0' || *end == '&' || *end == '#'))
			return n;
	}
	return -1;
}

/* HOST:PORT: a port of digits after the last colon, no slash. */
static bool host_port(const char *name)
{
	const char *colon = strrchr(name, ':');
	if (!colon || colon == name || strchr(name, '/') || !colon[1])
		return false;
	for (const char *p = colon + 1; *p; p++)
		if (!isdigit((unsigned char)*p) || p - colon > 5)
			return false;
	return access(name, F_OK) != 0;
}

char *fetch_pprof_address(const char *name)
{
	static const char profile[] = "/debug/pprof/profile";
	size_t cap = strlen(name) + sizeof(profile) + 8;
	char *url = xmalloc(cap);
	if (host_port(name)) {
		snprintf(url, cap, "http://%s%s", name, profile);
		return url;
	}
	const char *host = fetch_is_url(name) ? strstr(name, "://") + 3 : NULL;
	size_t end = host ? strcspn(host, "/?#") : 0;
	if (!host || (host[end] == '/' && host[end + 1] && !strchr("?#", host[end + 1]))) {
		free(url); /* a file, or a URL with a path of its own */
		return NULL;
	}
	const char *rest = host + end + (host[end] == '/');
	snprintf(url, cap, "%.*s%s%s", (int)(host + end - name), name, profile, rest);
	return url;
}

static size_t keep_body(char *chunk, size_t size, size_t count, void *arg)
{
	struct body *b = arg;
	size_t n = size * count;
	if (n > b->limit - b->len) {
		b->too_large = true;
		return 0; /* libcurl stops with CURLE_WRITE_ERROR */
	}
	if (b->len + n > b->cap) {
		size_t want = b->cap ? b->cap * 2 : 64 * 1024;
		while (want < b->len + n)
			want *= 2;
		b->cap = want < b->limit ? want : b->limit;
		b->data = xrealloc(b->data, b->cap);
	}
	memcpy(b->data + b->len, chunk, n);
	b->len += n;
	return n;
}

/* The first line of an error page, which is where Go's pprof handlers
 * say what went wrong ("profile duration exceeds server's
 * WriteTimeout"). */
static void first_line(const struct body *b, char *out, size_t cap)
{
	char line[200];
	size_t n = 0;
	while (n < b->len && n + 1 < sizeof(line) && b->data[n] != '\n')
		n++;
	memcpy(line, b->data, n);
	line[n] = '\0';
	escape_text(line, out, cap);
}

static bool looks_like_html(const char *content_type, const struct body *b)
{
	if (content_type && !strncasecmp(content_type, "text/html", 9))
		return true;
	size_t i = 0;
	while (i < b->len && isspace(b->data[i]))
		i++;
	return i + 5 <= b->len && (!strncasecmp((const char *)b->data + i, "<!doc", 5) ||
				   !strncasecmp((const char *)b->data + i, "<html", 5));
}

/* Does the URL's path end in /profile, Go's CPU profile? */
static bool go_cpu_profile(const char *url)
{
	size_t n = strcspn(url, "?#");
	return n >= 8 && !strncmp(url + n - 8, "/profile", 8);
}

/* How long the server profiles before it answers (0: it does not say). */
static long profile_seconds(const char *url)
{
	long seconds = fetch_url_seconds(url);
	if (seconds < 0 && go_cpu_profile(url))
		seconds = FETCH_GO_PROFILE_SECONDS; /* Go's default, not said */
	return seconds > 0 ? seconds : 0;
}

static double timeout_for(const char *url, const struct fetch_options *opt)
{
	if (opt && opt->timeout > 0)
		return opt->timeout;
	return (double)profile_seconds(url) + FETCH_MARGIN_SECONDS;
}

/* What the transfer's callback watches. */
struct watch {
	const struct fetch_options *opt;
	long seconds;      /* the profile's, 0 when unsaid */
	struct timespec began;
	long told;         /* whole seconds last told */
};

static int watch_transfer(void *arg, curl_off_t dltotal, curl_off_t dlnow,
			  curl_off_t ultotal, curl_off_t ulnow)
{
	(void)dltotal, (void)dlnow, (void)ultotal, (void)ulnow;
	struct watch *w = arg;
	if (w->opt->progress) {
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		double waited = (double)(now.tv_sec - w->began.tv_sec) +
				(now.tv_nsec - w->began.tv_nsec) / 1e9;
		if ((long)waited > w->told) {
			w->told = (long)waited;
			w->opt->progress(waited, w->seconds, false);
		}
	}
	return w->opt->cancel && atomic_load(w->opt->cancel); /* non-zero aborts */
}

static void set_options(CURL *curl, const char *url, double timeout,
			struct body *b, char *curl_err, struct watch *w)
{
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 10L);
	curl_easy_setopt(curl, CURLOPT_PROXY, ""); /* not $http_proxy: the URL named */
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, (long)(timeout * 1000));
	curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
			 (long)(timeout < 10 ? timeout * 1000 : 10000));
	curl_easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)b->limit);
	curl_easy_setopt(curl, CURLOPT_USERAGENT, "wprof-tui/" WPROF_VERSION);
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, keep_body);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, b);
	curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, curl_err);
	if (w->opt && (w->opt->cancel || w->opt->progress)) {
		curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, watch_transfer);
		curl_easy_setopt(curl, CURLOPT_XFERINFODATA, w);
		curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
	}
}

static bool transfer_failed(CURLcode rc, const struct body *b, double timeout,
			    const char *curl_err, char *err, size_t cap)
{
	if (b->too_large || rc == CURLE_FILESIZE_EXCEEDED)
		return fail(err, cap, "the body is larger than %zu MiB", b->limit >> 20);
	if (rc == CURLE_ABORTED_BY_CALLBACK)
		return fail(err, cap, "stopped");
	if (rc == CURLE_OPERATION_TIMEDOUT)
		return fail(err, cap, "no whole answer within %.0f s (the server hangs "
			    "or is too slow)", timeout);
	if (rc == CURLE_PARTIAL_FILE)
		return fail(err, cap, "the body is truncated: the connection closed "
			    "after %zu bytes, before the length the server announced",
			    b->len);
	char safe[CURL_ERROR_SIZE];
	escape_text(*curl_err ? curl_err : curl_easy_strerror(rc), safe, sizeof(safe));
	return fail(err, cap, "%s", safe);
}

static bool check_answer(CURL *curl, struct body *b, char *err, size_t cap)
{
	long status = 0;
	char *content_type = NULL;
	curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
	curl_easy_getinfo(curl, CURLINFO_CONTENT_TYPE, &content_type);
	if (status >= 400 || (status && status < 200)) {
		char line[400];
		first_line(b, line, sizeof(line));
		return fail(err, cap, "HTTP status %ld%s%s", status, *line ? ": " : "", line);
	}
	if (looks_like_html(content_type, b))
		return fail(err, cap, "the server sent an HTML page, not a profile (a "
			    "profile URL is like /debug/pprof/profile or "
			    "/debug/pprof/heap)");
	if (b->len == 0)
		return fail(err, cap, "the server sent an empty body");
	return true;
}

bool fetch_url(const char *url, const struct fetch_options *opt,
	       uint8_t **data, size_t *len, char *err, size_t cap)
{
	struct body b = { .limit = opt && opt->max_bytes ? opt->max_bytes : FETCH_MAX_BYTES };
	double timeout = timeout_for(url, opt);
	char curl_err[CURL_ERROR_SIZE] = "";
	curl_global_init(CURL_GLOBAL_DEFAULT);
	CURL *curl = curl_easy_init();
	if (!curl) {
		curl_global_cleanup();
		return fail(err, cap, "cannot start libcurl");
	}
	struct watch w = { .opt = opt, .seconds = profile_seconds(url) };
	clock_gettime(CLOCK_MONOTONIC, &w.began);
	set_options(curl, url, timeout, &b, curl_err, &w);
	CURLcode rc = curl_easy_perform(curl);
	if (opt && opt->progress)
		opt->progress(0, w.seconds, true);
	bool ok = rc == CURLE_OK ? check_answer(curl, &b, err, cap)
				 : transfer_failed(rc, &b, timeout, curl_err, err, cap);
	curl_easy_cleanup(curl);
	curl_global_cleanup();
	if (!ok) {
		free(b.data);
		return false;
	}
	*data = b.data;
	*len = b.len;
	return true;
}
