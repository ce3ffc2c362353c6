#include <stdio.h>
#include <stdlib.h>
#include "inventory.h"

static const char *describe(const struct item *it)
{
    return it->name;
}

int main(int argc, char **argv)
{
    struct inventory inv;
    int unused_counter;

    if (inventory_init(&inv, 4) != 0)
        return 1;
    inventory_add(&inv, "widget", 3, 2.50);
    inventory_add(&inv, "gadget", "7", 10.0);

    struct item *first = inv.items;
    int name_len = describe(first);
    double value = inventory_value(inv);
    printf("%s: %d items worth %f\n", argv[0], inv.count, value);
    inventory_free(&inv);
    return 0;
}
