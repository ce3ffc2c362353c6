#ifndef INVENTORY_H
#define INVENTORY_H

#include <stddef.h>

struct item {
    char name[32];
    int quantity;
    double price;
};

struct inventory {
    struct item *items;
    size_t count;
    size_t capacity;
};

int inventory_init(struct inventory *inv, size_t capacity);
int inventory_add(struct inventory *inv, const char *name, int quantity, double price);
double inventory_value(const struct inventory *inv);
void inventory_free(struct inventory *inv);
/* declared but never defined: used to trigger a linker error */
int inventory_save(const struct inventory *inv, const char *path);

#endif
