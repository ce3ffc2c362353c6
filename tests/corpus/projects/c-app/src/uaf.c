#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct session {
    int id;
    char user[16];
};

static struct session *open_session(int id, const char *user)
{
    struct session *s = malloc(sizeof(*s));
    s->id = id;
    strncpy(s->user, user, sizeof(s->user) - 1);
    s->user[sizeof(s->user) - 1] = '\0';
    return s;
}

static void close_session(struct session *s)
{
    free(s);
}

int main(void)
{
    struct session *s = open_session(42, "alice");
    close_session(s);
    /* BUG: use after free */
    printf("session %d for %s closed\n", s->id, s->user);

    int *leak = malloc(10 * sizeof(int));
    leak[0] = 1;
    int *buf = malloc(4 * sizeof(int));
    buf[4] = 7; /* BUG: heap buffer overflow */
    free(buf);
    return 0;
}
