package com.example.inventory;

public class Main {
    static int parseQuantity(String raw) {
        return Integer.parseInt(raw.trim());
    }

    static void load(Inventory inv, String[] lines) {
        for (String line : lines) {
            String[] parts = line.split(",");
            inv.add(parts[0], parseQuantity(parts[1]));
        }
    }

    public static void main(String[] args) {
        Inventory inv = new Inventory();
        load(inv, new String[] {"bolt,10", "nut,4"});
        System.out.println("total=" + inv.total());
        System.out.println("gear=" + inv.quantity("gear"));
    }
}
