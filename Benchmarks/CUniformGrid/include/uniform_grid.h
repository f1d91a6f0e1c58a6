#ifndef AXHIT_UNIFORM_GRID_H
#define AXHIT_UNIFORM_GRID_H

#include <stddef.h>
#include <stdint.h>

/* A uniform grid over axis-aligned boxes, written as plain C would write
   it: the harness's yardstick for the engine's frame queries, so that the
   goal is measured against the best a plain implementation does and not
   against the same structure in Swift. The rules are those of the Swift
   baseline (`UniformGridBaseline`): square cells of the given side, boxes
   closed-open and listed in every cell they cover, boxes spanning more
   than `wide_cells` cells in one list every query scans; the answer is the
   highest-numbered box holding the point. Each cell entry carries its box
   (40 bytes), so a query reads the cell's start and then its entries, and
   no box from elsewhere. */
typedef struct ax_uniform_grid ax_uniform_grid;

/* A grid over `count` boxes given as `minX, minY, maxX, maxY` quadruples,
   with cells of side `cell_side` from (`origin_x`, `origin_y`), `columns`
   by `rows` of them. NULL when memory runs out or the arguments are
   invalid. */
ax_uniform_grid *ax_uniform_grid_create(
    const double *boxes, int32_t count, double origin_x, double origin_y, double cell_side, int32_t columns,
    int32_t rows, int32_t wide_cells);

void ax_uniform_grid_destroy(ax_uniform_grid *grid);

/* The highest-numbered box holding (x, y), closed-open, or -1. */
int32_t ax_uniform_grid_hit(const ax_uniform_grid *grid, double x, double y);

/* Bytes the grid holds. */
size_t ax_uniform_grid_bytes(const ax_uniform_grid *grid);

#endif
