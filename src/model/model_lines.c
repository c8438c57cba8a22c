/* The model's table of node lines: (node, line) pairs found through an
 * open-addressing index, each with a self and a total per sample type. */
#include "model.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static size_t line_slot(const struct model *m, uint32_t node, int32_t line)
{
	size_t mask = m->node_line_index_size - 1;
	uint64_t key = ((uint64_t)node << 32) | (uint32_t)line;
	for (size_t i = hash_mix(key) & mask;; i = (i + 1) & mask) {
		uint32_t k = m->node_line_index[i];
		if (k == NO_ID || (m->node_lines[k].node == node &&
				   m->node_lines[k].line == line))
			return i;
	}
}

static void rebuild_line_index(struct model *m)
{
	free(m->node_line_index);
	m->node_line_index_size = m->node_line_index_size ? m->node_line_index_size * 2 : 1024;
	m->node_line_index = xmalloc(m->node_line_index_size * sizeof(uint32_t));
	memset(m->node_line_index, 0xff, m->node_line_index_size * sizeof(uint32_t));
	for (uint32_t k = 0; k < m->nnode_lines; k++)
		m->node_line_index[line_slot(m, m->node_lines[k].node,
					     m->node_lines[k].line)] = k;
}

uint32_t model_node_line(struct model *m, uint32_t node, int32_t line)
{
	if ((m->nnode_lines + 1) * 2 > m->node_line_index_size)
		rebuild_line_index(m);
	size_t slot = line_slot(m, node, line);
	if (m->node_line_index[slot] != NO_ID)
		return m->node_line_index[slot];
	size_t old_cap = m->node_lines_cap, width = 2 * (size_t)m->ntypes;
	GROW(m->node_lines, m->node_lines_cap, m->nnode_lines + 1);
	if (m->node_lines_cap != old_cap) {
		m->node_line_values = xrealloc(m->node_line_values,
					       m->node_lines_cap * width * sizeof(double));
	}
	uint32_t k = (uint32_t)m->nnode_lines++;
	m->node_lines[k] = (struct node_line){ node, line };
	memset(&m->node_line_values[k * width], 0, width * sizeof(double));
	m->node_line_index[slot] = k;
	return k;
}
