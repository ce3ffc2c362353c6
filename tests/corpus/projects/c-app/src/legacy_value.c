/* An old copy of inventory_value() that was never deleted: linking it next to
 * inventory.c defines the symbol twice (a "multiple definition" linker error). */
#include "inventory.h"

int inventory_debug = 0;

double inventory_value(const struct inventory *inv)
{
    double total = 0.0;
    for (size_t i = 0; i < inv->count; i++)
        total += inv->items[i].price;
    return total;
}
