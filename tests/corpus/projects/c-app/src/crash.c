#include <stdio.h>
#include <string.h>

struct config {
    const char *name;
    const char *path;
};

static size_t path_length(const struct config *cfg)
{
    return strlen(cfg->path);
}

static void load_config(const struct config *cfg)
{
    printf("loading %s\n", cfg->name);
    printf("path has %zu chars\n", path_length(cfg));
}

int main(void)
{
    struct config cfgs[] = {
        {"main", "/etc/app/main.conf"},
        {"extra", NULL},
    };
    for (int i = 0; i < 2; i++)
        load_config(&cfgs[i]);
    return 0;
}
