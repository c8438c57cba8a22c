// trace() output, debugger statements and a caught exception between chunks of work
function work(n) { let h = 0; for (let i = 0; i < n; i++) h = (h + Math.imul(i, 2654435761)) | 0; return h; }
function chunk(k) { let s = 0; for (let i = 0; i < 100; i++) s += work(2000); return s; }
trace("before 1st debugger\n");
chunk(1);
debugger;
trace("after 1st debugger <&> \"quoted\"\n");
chunk(2);
debugger;
trace("after 2nd debugger\n");
chunk(3);
try { null.x; } catch (e) { trace("caught " + e + "\n"); }
chunk(4);
trace("done\n");
