#include <stdio.h>
#include "inventory.h"

int main(void)
{
    struct inventory inv;

    if (inventory_init(&inv, 4) != 0)
        return 1;
    inventory_add(&inv, "widget", 3, 2.50);
    inventory_add(&inv, "gadget", 7, 10.0);
    printf("%zu items worth %.2f\n", inv.count, inventory_value(&inv));
    inventory_free(&inv);
    return 0;
}
