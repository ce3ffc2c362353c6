package com.example.shop;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class CartTest {
    @Test
    public void totalOfTwoItems() {
        Cart cart = new Cart();
        cart.add(250);
        cart.add(199);
        assertEquals(449, cart.totalCents());
    }

    @Test
    public void discountStartsAtOneHundred() {
        Cart cart = new Cart();
        cart.add(6000);
        cart.add(4000);
        assertEquals(9000, cart.totalCents());
    }

    @Test
    public void cheapestOfEmptyCartIsZero() {
        assertEquals(0, new Cart().cheapest());
    }

    @Test(expected = IllegalArgumentException.class)
    public void negativePriceIsRejected() {
        new Cart().add(-1);
    }

    @Test
    public void countsItems() {
        Cart cart = new Cart();
        cart.add(1);
        cart.add(2);
        assertEquals(2, cart.count());
    }
}
