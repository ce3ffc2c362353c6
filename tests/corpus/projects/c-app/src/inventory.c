#include <stdlib.h>
#include <string.h>
#include "inventory.h"

int inventory_init(struct inventory *inv, size_t capacity)
{
    inv->items = calloc(capacity, sizeof(*inv->items));
    if (inv->items == NULL)
        return -1;
    inv->count = 0;
    inv->capacity = capacity;
    return 0;
}

int inventory_add(struct inventory *inv, const char *name, int quantity, double price)
{
    if (inv->count == inv->capacity)
        return -1;
    struct item *it = &inv->items[inv->count++];
    strncpy(it->name, name, sizeof(it->name) - 1);
    it->quantity = quantity;
    it->price = price;
    return 0;
}

double inventory_value(const struct inventory *inv)
{
    double total = 0.0;
    for (size_t i = 0; i < inv->count; i++)
        total += inv->items[i].quantity * inv->items[i].price;
    return total;
}

void inventory_free(struct inventory *inv)
{
    free(inv->items);
    inv->count = 0;
    inv->capacity = 0;
}
