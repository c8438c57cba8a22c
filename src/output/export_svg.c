/* --export svg: the flame graph as a self-contained SVG, like
 * flamegraph.pl's: frames as rectangles with their name, total and share
 * in a tooltip, a click zooms (the frame fills the width, its callers stay
 * above it), Search highlights the matching functions and prints the
 * share they cover, each sample once.  Frames narrower than 0.1 pixel
 * are left out, as flamegraph.pl's --minwidth does. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "report_flame.h"
#include "base/units.h"

#define SVG_WIDTH 1200
#define PAD 10
#define FRAME_HEIGHT 16
#define TOP 36     /* title and buttons */
#define BOTTOM 28  /* details line */
#define MIN_PIXELS 0.1

/* XML text: the five specials escaped; bytes XML 1.0 forbids (controls)
 * and broken UTF-8 become '?'. */
static void xml_text(FILE *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", out); continue;
		case '<': fputs("&lt;", out); continue;
		case '>': fputs("&gt;", out); continue;
		case '"': fputs("&quot;", out); continue;
		case '\'': fputs("&apos;", out); continue;
		}
		if (*p < 0x20 && *p != '\t') {
			fputc('?', out);
		} else if (*p < 0x80) {
			fputc(*p, out);
		} else {
			size_t n = *p >= 0xf0 && *p < 0xf5 ? 4 : *p >= 0xe0 ? 3 : *p >= 0xc2 && *p < 0xe0 ? 2 : 0;
			size_t k = 1;
			while (n && k < n && (p[k] & 0xc0) == 0x80)
				k++;
			if (!n || k < n) {
				fputc('?', out);
				continue;
			}
			fwrite(p, 1, n, out);
			p += n - 1;
		}
	}
}

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u; /* FNV-1a: the same colours every run */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* A colour by kind, varied by the name so that neighbours differ. */
static void frame_colour(const struct model *m, uint32_t frame, char *buf, size_t cap)
{
	static const unsigned char base[KIND_COUNT][3] = {
		[KIND_JS] = { 235, 150, 50 },   [KIND_NATIVE] = { 90, 160, 215 },
		[KIND_WASM] = { 165, 115, 215 }, [KIND_GC] = { 215, 85, 80 },
		[KIND_IDLE] = { 185, 185, 185 }, [KIND_PROGRAM] = { 125, 190, 120 },
		[KIND_ROOT] = { 200, 200, 165 },
	};
	const struct frame *fr = &m->frames[frame];
	uint32_t h = name_hash(model_str(m, fr->name));
	int rgb[3];
	for (int c = 0; c < 3; c++) {
		int v = base[fr->kind < KIND_COUNT ? fr->kind : KIND_JS][c] +
			(int)((h >> (8 * c)) % 41) - 20;
		rgb[c] = v < 0 ? 0 : v > 255 ? 255 : v;
	}
	snprintf(buf, cap, "rgb(%d,%d,%d)", rgb[0], rgb[1], rgb[2]);
}

static const char script[] =
	"var W=1200,PAD=10,frames,details,matched,resetBtn,whole,total;\n"
	"function num(g,k){return parseFloat(g.getAttribute('data-'+k));}\n"
	"function init(evt){frames=[].slice.call(document.querySelectorAll('g.f'));\n"
	" details=document.getElementById('details');matched=document.getElementById('matched');\n"
	" resetBtn=document.getElementById('reset');var svg=document.documentElement;\n"
	" whole=parseFloat(svg.getAttribute('data-whole'));total=parseFloat(svg.getAttribute('data-total'));\n"
	" frames.forEach(function(g){g.addEventListener('click',function(){zoom(g);});\n"
	"  g.addEventListener('mouseover',function(){details.textContent=g.querySelector('title').textContent;});\n"
	"  g.addEventListener('mouseout',function(){details.textContent=' ';});});\n"
	" document.getElementById('search').addEventListener('click',function(){search(prompt('Search (a part of a function name)',''));});\n"
	" resetBtn.addEventListener('click',reset);reset();}\n"
	"function place(g,x0,scale){var r=g.querySelector('rect'),t=g.querySelector('text');\n"
	" var x=(num(g,'x')-x0)*scale+PAD,w=num(g,'w')*scale;r.setAttribute('x',x);r.setAttribute('width',w);\n"
	" t.setAttribute('x',x+3);var name=g.getAttribute('data-n'),n=Math.floor((w-6)/7);\n"
	" t.textContent=n<3?'':name.length<=n?name:name.substring(0,n-1)+'\\u2026';}\n"
	"function zoom(z){var zi=num(z,'i'),ze=num(z,'e'),zx=num(z,'x'),zw=num(z,'w');\n"
	" frames.forEach(function(g){var i=num(g,'i'),e=num(g,'e');\n"
	"  if(i>=zi&&i<ze){g.style.display='';g.style.opacity='';place(g,zx,(W-2*PAD)/zw);}\n"
	"  else if(i<zi&&e>=ze){g.style.display='';g.style.opacity='0.6';place(g,num(g,'x'),(W-2*PAD)/num(g,'w'));}\n"
	"  else g.style.display='none';});resetBtn.style.opacity='1';}\n"
	"function reset(){frames.forEach(function(g){g.style.display='';g.style.opacity='';place(g,0,(W-2*PAD)/whole);});\n"
	" resetBtn.style.opacity='0';}\n"
	"function search(term){var covered=0,until=-1;term=(term||'').toLowerCase();\n"
	" frames.forEach(function(g){var r=g.querySelector('rect'),hit=term&&g.getAttribute('data-n').toLowerCase().indexOf(term)>=0;\n"
	"  r.setAttribute('fill',hit?'rgb(230,0,230)':g.getAttribute('data-c'));\n"
	"  if(hit&&num(g,'i')>=until){covered+=num(g,'w');until=num(g,'e');}});\n"
	" matched.textContent=term?'Matched: '+(100*covered/total).toFixed(1)+' %':' ';}\n";

struct svg_geometry {
	double scale;
	int height;
	uint32_t levels;
};

static void write_frame(FILE *out, const struct flame_report *rep,
			const struct svg_geometry *g, uint32_t i, uint32_t end)
{
	const struct model *m = rep->ctx->model;
	const struct flame_frame *fr = &rep->flame->frames[i];
	const char *name = model_str(m, m->frames[fr->frame].name);
	char colour[32], total[32], pct[32];
	frame_colour(m, fr->frame, colour, sizeof(colour));
	format_value(m, rep->ctx->type, fr->width, total, sizeof(total));
	format_percent(fr->width, rep->flame->profile_total, pct, sizeof(pct));
	int y = rep->root_below ? g->height - BOTTOM - (int)(fr->depth + 1) * FRAME_HEIGHT
				: TOP + (int)fr->depth * FRAME_HEIGHT;
	fprintf(out, "<g class=\"f\" data-i=\"%u\" data-e=\"%u\" data-x=\"%.17g\" "
		"data-w=\"%.17g\" data-c=\"%s\" data-n=\"", i, end, fr->x, fr->width, colour);
	xml_text(out, name);
	fputs("\"><title>", out);
	xml_text(out, name);
	fprintf(out, " (%s, %s)</title><rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" "
		"height=\"%d\" fill=\"%s\" rx=\"2\"/><text x=\"%.2f\" y=\"%d\"></text></g>\n",
		total, pct, PAD + fr->x * g->scale, y, fr->width * g->scale,
		FRAME_HEIGHT - 1, colour, PAD + fr->x * g->scale + 3, y + 11);
}

/* The frames at least MIN_PIXELS wide; a frame's subtree is left out
 * with it (its children are narrower still). */
static void write_frames(FILE *out, const struct flame_report *rep,
			 const struct svg_geometry *g)
{
	const struct flame *f = rep->flame;
	for (uint32_t i = 0; i < f->nframes;) {
		if (f->frames[i].width * g->scale < MIN_PIXELS) {
			i = f->frames[i].end;
			continue;
		}
		write_frame(out, rep, g, i, f->frames[i].end);
		i++;
	}
}

static uint32_t drawn_levels(const struct flame *f, double scale)
{
	uint32_t levels = 0;
	for (uint32_t i = 0; i < f->nframes;) {
		if (f->frames[i].width * scale < MIN_PIXELS) {
			i = f->frames[i].end;
			continue;
		}
		if (f->frames[i].depth + 1 > levels)
			levels = f->frames[i].depth + 1;
		i++;
	}
	return levels;
}

bool flame_export_svg(const char *path, const struct flame_report *rep)
{
	const struct flame *f = rep->flame;
	FILE *out = fopen(path, "w");
	if (!out)
		return false;
	struct svg_geometry g = { .scale = f->whole > 0 ? (SVG_WIDTH - 2 * PAD) / f->whole : 0 };
	g.levels = drawn_levels(f, g.scale);
	g.height = TOP + BOTTOM + (int)g.levels * FRAME_HEIGHT;
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"xmlns=\"http://www.w3.org/2000/svg\" onload=\"init(evt)\" "
		"data-whole=\"%.17g\" data-total=\"%.17g\">\n",
		SVG_WIDTH, g.height, SVG_WIDTH, g.height, f->whole,
		f->profile_total > 0 ? f->profile_total : f->whole);
	fputs("<style>text{font-family:Verdana,sans-serif;font-size:12px;fill:#000}"
	      "g.f{cursor:pointer}g.f:hover rect{stroke:#000;stroke-width:0.5}"
	      "#title{font-size:17px}#search,#reset{fill:#225}</style>\n", out);
	fprintf(out, "<script type=\"text/ecmascript\"><![CDATA[\n%s]]></script>\n", script);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#f6f6f0\"/>\n",
		SVG_WIDTH, g.height);
	fprintf(out, "<text id=\"title\" x=\"%d\" y=\"24\" text-anchor=\"middle\">", SVG_WIDTH / 2);
	xml_text(out, rep->file);
	fprintf(out, " (%s, %s)</text>\n", rule_name(rep->ctx->rule),
		f->order == FLAME_TIME_ORDER ? "time order" : "left-heavy");
	fprintf(out, "<text id=\"reset\" x=\"%d\" y=\"24\">Reset zoom</text>\n", PAD);
	fprintf(out, "<text id=\"search\" x=\"%d\" y=\"24\">Search</text>\n", SVG_WIDTH - PAD - 60);
	fprintf(out, "<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n", PAD, g.height - 10);
	fprintf(out, "<text id=\"matched\" x=\"%d\" y=\"%d\"> </text>\n", SVG_WIDTH - PAD - 140,
		g.height - 10);
	fputs("<g id=\"frames\">\n", out);
	write_frames(out, rep, &g);
	fputs("</g>\n</svg>\n", out);
	int saved = ferror(out) ? EIO : 0;
	if (fclose(out) != 0 || saved) {
		errno = saved ? saved : errno;
		return false;
	}
	return true;
}
