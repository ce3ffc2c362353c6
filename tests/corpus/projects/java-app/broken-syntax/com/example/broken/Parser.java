package com.example.broken;

public class Parser {
    public int parse(String s) {
        int value = Integer.parseInt(s)
        return value;
    }
}
