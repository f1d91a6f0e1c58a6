#include "uniform_grid.h"

#include <math.h>
#include <stdlib.h>

typedef struct {
    double min_x, min_y, max_x, max_y;
    int32_t box;
} entry;

struct ax_uniform_grid {
    double origin_x, origin_y, inverse;
    int32_t columns, rows;
    int32_t *starts; /* columns * rows + 1 */
    entry *entries;
    entry *wide;
    int32_t wide_count;
    size_t bytes;
};

/* The cells a closed-open box covers on one axis: [first, last]. */
static void span(double lo, double hi, double origin, double inverse, int32_t n, int32_t *first, int32_t *last) {
    double a = (lo - origin) * inverse, b = (hi - origin) * inverse;
    int32_t f = isfinite(a) ? (a < 0 ? 0 : (a >= n ? n - 1 : (int32_t)a)) : (a < 0 ? 0 : n - 1);
    int32_t l;
    if (!isfinite(b)) {
        l = b < 0 ? 0 : n - 1;
    } else {
        double c = floor(b);
        l = c == b ? (int32_t)c - 1 : (int32_t)c; /* a box ending on an edge stops before it */
        l = l < 0 ? 0 : (l >= n ? n - 1 : l);
    }
    *first = f;
    *last = l < f ? f : l;
}

ax_uniform_grid *ax_uniform_grid_create(
    const double *boxes, int32_t count, double origin_x, double origin_y, double cell_side, int32_t columns,
    int32_t rows, int32_t wide_cells) {
    if (count < 0 || columns < 1 || rows < 1 || !(cell_side > 0) || (int64_t)columns * rows > INT32_MAX - 1) {
        return NULL;
    }
    ax_uniform_grid *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->origin_x = origin_x;
    g->origin_y = origin_y;
    g->inverse = 1 / cell_side;
    g->columns = columns;
    g->rows = rows;
    size_t cells = (size_t)columns * rows;
    g->starts = calloc(cells + 1, sizeof *g->starts);
    if (!g->starts) goto fail;
    int64_t total = 0, wide = 0;
    for (int32_t k = 0; k < count; k++) {
        const double *b = boxes + 4 * (size_t)k;
        int32_t x0, x1, y0, y1;
        span(b[0], b[2], origin_x, g->inverse, columns, &x0, &x1);
        span(b[1], b[3], origin_y, g->inverse, rows, &y0, &y1);
        if ((int64_t)(x1 - x0 + 1) * (y1 - y0 + 1) > wide_cells) {
            wide++;
            continue;
        }
        for (int32_t y = y0; y <= y1; y++)
            for (int32_t x = x0; x <= x1; x++) g->starts[(size_t)y * columns + x + 1]++;
        total += (int64_t)(x1 - x0 + 1) * (y1 - y0 + 1);
    }
    if (total > INT32_MAX) goto fail;
    for (size_t c = 0; c < cells; c++) g->starts[c + 1] += g->starts[c];
    g->entries = malloc((size_t)(total > 0 ? total : 1) * sizeof *g->entries);
    g->wide = malloc((size_t)(wide > 0 ? wide : 1) * sizeof *g->wide);
    int32_t *cursor = malloc(cells * sizeof *cursor);
    if (!g->entries || !g->wide || !cursor) {
        free(cursor);
        goto fail;
    }
    for (size_t c = 0; c < cells; c++) cursor[c] = g->starts[c];
    for (int32_t k = 0; k < count; k++) {
        const double *b = boxes + 4 * (size_t)k;
        entry e = {b[0], b[1], b[2], b[3], k};
        int32_t x0, x1, y0, y1;
        span(b[0], b[2], origin_x, g->inverse, columns, &x0, &x1);
        span(b[1], b[3], origin_y, g->inverse, rows, &y0, &y1);
        if ((int64_t)(x1 - x0 + 1) * (y1 - y0 + 1) > wide_cells) {
            g->wide[g->wide_count++] = e;
            continue;
        }
        for (int32_t y = y0; y <= y1; y++)
            for (int32_t x = x0; x <= x1; x++) g->entries[cursor[(size_t)y * columns + x]++] = e;
    }
    free(cursor);
    g->bytes = (cells + 1) * sizeof *g->starts + (size_t)total * sizeof *g->entries + (size_t)wide * sizeof *g->wide;
    return g;
fail:
    ax_uniform_grid_destroy(g);
    return NULL;
}

void ax_uniform_grid_destroy(ax_uniform_grid *g) {
    if (!g) return;
    free(g->starts);
    free(g->entries);
    free(g->wide);
    free(g);
}

static int holds(const entry *e, double x, double y) {
    return x >= e->min_x && x < e->max_x && y >= e->min_y && y < e->max_y;
}

int32_t ax_uniform_grid_hit(const ax_uniform_grid *g, double x, double y) {
    int32_t best = -1;
    double cx = (x - g->origin_x) * g->inverse, cy = (y - g->origin_y) * g->inverse;
    if (cx >= 0 && cy >= 0 && cx < g->columns && cy < g->rows) {
        size_t c = (size_t)(int32_t)cy * g->columns + (int32_t)cx;
        /* Back to front: the first box holding the point is the frontmost. */
        for (int32_t k = g->starts[c + 1] - 1; k >= g->starts[c]; k--) {
            if (holds(&g->entries[k], x, y)) {
                best = g->entries[k].box;
                break;
            }
        }
    }
    for (int32_t k = g->wide_count - 1; k >= 0 && g->wide[k].box > best; k--) {
        if (holds(&g->wide[k], x, y)) {
            best = g->wide[k].box;
            break;
        }
    }
    return best;
}

size_t ax_uniform_grid_bytes(const ax_uniform_grid *g) { return g ? g->bytes : 0; }
