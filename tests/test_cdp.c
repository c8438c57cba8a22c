/* The inspector session's folding (src/live/cdp.c): windows whose node
 * ids differ are merged by call frame under the same parent and laid end
 * to end; broken windows are refused without touching the session.
 * Numbers worked by hand in the comments. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "live/cdp.h"

#define FRAME(name) "{\"functionName\":\"" name "\",\"scriptId\":\"1\",\"url\":\"x.js\"," \
		    "\"lineNumber\":0,\"columnNumber\":0}"

/* Children listed before their parents: b(3) under a(2) under root(1).
 * Samples a, b, b at 100 us apart from startTime 100: times 0, 100, 200
 * on the session's axis; the window spans 300 us. */
static const char window1[] =
	"{\"nodes\":[{\"id\":3,\"callFrame\":" FRAME("b") ",\"children\":[]},"
	"{\"id\":1,\"callFrame\":" FRAME("(root)") ",\"children\":[2]},"
	"{\"id\":2,\"callFrame\":" FRAME("a") ",\"children\":[3]}],"
	"\"startTime\":100,\"endTime\":400,\"samples\":[2,3,3],\"timeDeltas\":[0,100,100]}";
/* The same root and a under other ids, and c new under a.  Samples c at
 * 1050 and a at 1075: 300 + 50 = 350 and 375 on the axis, so deltas 150
 * (from 200) and 25; the session then spans 300 + 100. */
static const char window2[] =
	"{\"nodes\":[{\"id\":7,\"callFrame\":" FRAME("(root)") ",\"children\":[8]},"
	"{\"id\":8,\"callFrame\":" FRAME("a") ",\"children\":[9]},"
	"{\"id\":9,\"callFrame\":" FRAME("c") ",\"children\":[]}],"
	"\"startTime\":1000,\"endTime\":1100,\"samples\":[9,8],\"timeDeltas\":[50,25]}";

static void check_ints(const cJSON *array, const int *want, int n, const char *what)
{
	CHECK_MSG(cJSON_GetArraySize(array) == n, "%s: %d entries, want %d", what,
		  cJSON_GetArraySize(array), n);
	for (int i = 0; i < n && i < cJSON_GetArraySize(array); i++)
		CHECK_MSG(cJSON_GetArrayItem(array, i)->valueint == want[i],
			  "%s[%d] = %d, want %d", what, i,
			  cJSON_GetArrayItem(array, i)->valueint, want[i]);
}

static void test_two_windows(void)
{
	struct cdp *c = cdp_new_session();
	char err[300];
	CHECK(cdp_fold_json(c, window1, strlen(window1), err, sizeof(err)));
	CHECK(cdp_fold_json(c, window2, strlen(window2), err, sizeof(err)));
	char *text = cdp_session_json(c);
	cJSON *doc = cJSON_Parse(text);
	const cJSON *nodes = cJSON_GetObjectItem(doc, "nodes");
	/* Session ids by first appearance: (root) 1, a 2, b 3, c 4. */
	const char *names[] = { "(root)", "a", "b", "c" };
	const int hits[] = { 0, 2, 2, 1 };
	CHECK_MSG(cJSON_GetArraySize(nodes) == 4, "%d nodes, want 4", cJSON_GetArraySize(nodes));
	for (int i = 0; i < 4 && i < cJSON_GetArraySize(nodes); i++) {
		const cJSON *n = cJSON_GetArrayItem(nodes, i);
		const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(
			cJSON_GetObjectItem(n, "callFrame"), "functionName"));
		CHECK_MSG(name && !strcmp(name, names[i]), "node %d is %s, want %s", i + 1,
			  name ? name : "?", names[i]);
		CHECK(cJSON_GetObjectItem(n, "hitCount")->valueint == hits[i]);
	}
	const int a_children[] = { 3, 4 };
	check_ints(cJSON_GetObjectItem(cJSON_GetArrayItem(nodes, 1), "children"), a_children, 2,
		   "a's children");
	const int samples[] = { 2, 3, 3, 4, 2 }, deltas[] = { 0, 100, 100, 150, 25 };
	check_ints(cJSON_GetObjectItem(doc, "samples"), samples, 5, "samples");
	check_ints(cJSON_GetObjectItem(doc, "timeDeltas"), deltas, 5, "timeDeltas");
	CHECK(cJSON_GetObjectItem(doc, "endTime")->valueint == 400);
	CHECK(cdp_sample_count(c) == 5);
	cJSON_Delete(doc);
	free(text);
	cdp_free(c);
}

static void refused(const char *json, const char *why)
{
	struct cdp *c = cdp_new_session();
	char err[300] = "";
	CHECK_MSG(!cdp_fold_json(c, json, strlen(json), err, sizeof(err)), "accepted: %s", why);
	CHECK_MSG(err[0], "no message: %s", why);
	cdp_free(c);
}

static void test_broken_windows(void)
{
	/* Each node the other's child: no root, so the sample names a node
	 * that has no place in the session. */
	refused("{\"nodes\":[{\"id\":1,\"callFrame\":" FRAME("a") ",\"children\":[2]},"
		"{\"id\":2,\"callFrame\":" FRAME("b") ",\"children\":[1]}],"
		"\"startTime\":0,\"endTime\":10,\"samples\":[1],\"timeDeltas\":[1]}", "a cycle");
	refused("{\"nodes\":[{\"id\":1,\"callFrame\":" FRAME("a") ",\"children\":[2,2]},"
		"{\"id\":2,\"callFrame\":" FRAME("b") ",\"children\":[]}],"
		"\"startTime\":0,\"endTime\":10,\"samples\":[1],\"timeDeltas\":[1]}",
		"a child twice");
	refused("{\"nodes\":[{\"id\":1,\"callFrame\":" FRAME("a") ",\"children\":[]}],"
		"\"startTime\":0,\"endTime\":10,\"samples\":[1,1],\"timeDeltas\":[1]}",
		"samples and timeDeltas of different lengths");
	refused("{\"nodes\":[{\"id\":1,\"callFrame\":" FRAME("a") ",\"children\":[]}],"
		"\"startTime\":0,\"endTime\":10,\"samples\":[5],\"timeDeltas\":[1]}",
		"a sample of no node");
	refused("{\"nodes\":[],\"startTime\":0,\"endTime\":10}", "no nodes");
	refused("[1,2", "not JSON");
}

int main(void)
{
	test_two_windows();
	test_broken_windows();
	return check_done();
}
