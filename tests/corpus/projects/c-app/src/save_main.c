#include <stdio.h>
#include "inventory.h"

extern void report_totals(const struct inventory *inv);

int main(void)
{
    struct inventory inv;

    if (inventory_init(&inv, 2) != 0)
        return 1;
    inventory_add(&inv, "bolt", 100, 0.05);
    if (inventory_save(&inv, "inventory.db") != 0)
        fprintf(stderr, "save failed\n");
    report_totals(&inv);
    inventory_free(&inv);
    return 0;
}
