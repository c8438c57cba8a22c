# The Chrome trace cut for the tests: the renderer that ran the page
# (the pid whose ProfileChunks name bundle.min.js): its metadata (M) and
# its Profile and ProfileChunk events, as Chromium wrote them.
import json, sys
t = json.load(open(sys.argv[1]))
events = t['traceEvents'] if isinstance(t, dict) else t
pids = {e['pid'] for e in events if e.get('name') == 'ProfileChunk' and
        'bundle.min.js' in json.dumps(e)}
keep = [e for e in events if e.get('pid') in pids and
        (e.get('ph') == 'M' or e.get('name') in ('Profile', 'ProfileChunk'))]
json.dump({'traceEvents': keep}, open(sys.argv[2], 'w'), separators=(',', ':'))
