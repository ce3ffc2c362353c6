package com.example.inventory;

import static org.junit.Assert.assertEquals;

import java.util.Arrays;
import org.junit.Before;
import org.junit.Test;

public class InventoryTest {
    private Inventory inv;

    @Before
    public void setUp() {
        inv = new Inventory();
        inv.add("zeta", 2);
        inv.add("alpha", 3);
    }

    @Test
    public void totalSumsQuantities() {
        assertEquals(5, inv.total());
    }

    @Test
    public void namesAreSorted() {
        assertEquals(Arrays.asList("alpha", "zeta"), inv.names());
    }

    @Test
    public void mergesQuantities() {
        inv.add("alpha", 1);
        assertEquals(4, inv.quantity("alpha"));
    }

    @Test
    public void missingItemHasZeroQuantity() {
        assertEquals(0, inv.quantity("missing"));
    }

    @Test(expected = IllegalArgumentException.class)
    public void rejectsNegative() {
        inv.add("bad", -1);
    }
}
