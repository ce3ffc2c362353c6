/* A second definition of the debug flag: another "multiple definition". */
int inventory_debug = 1;
