# The Firefox profile cut for the tests: only the file:// Content
# process (the page's), its markers emptied (schema kept), the parent
# process's threads left out.  Samples, stacks, frames and strings as
# Firefox wrote them.
import json, sys
p = json.load(open(sys.argv[1]))
p['threads'] = []
p['processes'] = [sp for sp in p['processes']
                  if any(t.get('processName') == 'file:// Content' for t in sp['threads'])]
for sp in p['processes']:
    sp['processes'] = []
    for t in sp['threads']:
        t['markers']['data'] = []
json.dump(p, open(sys.argv[2], 'w'), separators=(',', ':'))
