/* The model's table of node lines: (node, line) pairs found through the
 * builder's index, each with a self and a total per sample type. */
#include "model.h"

#include <string.h>

#include "base/util.h"
#include "model_build.h"

uint32_t model_node_line(struct model *m, uint32_t node, int32_t line)
{
	struct id_table *index = &m->build->node_lines;
	uint64_t key = ((uint64_t)node << 32) | (uint32_t)line;
	struct id_probe p = id_table_probe(index, hash_mix(key));
	for (uint32_t k; (k = id_probe_next(index, &p)) != NO_ID;)
		if (m->node_lines[k].node == node && m->node_lines[k].line == line)
			return k;
	size_t old_cap = m->node_lines_cap, width = 2 * (size_t)m->ntypes;
	GROW(m->node_lines, m->node_lines_cap, m->nnode_lines + 1);
	if (m->node_lines_cap != old_cap) {
		m->node_line_values = xrealloc(m->node_line_values,
					       m->node_lines_cap * width * sizeof(double));
	}
	uint32_t k = (uint32_t)m->nnode_lines++;
	m->node_lines[k] = (struct node_line){ node, line };
	memset(&m->node_line_values[k * width], 0, width * sizeof(double));
	id_table_add(index, &p, k);
	return k;
}
