<?php

declare(strict_types=1);

namespace Winnow\Inventory;

final class Format
{
    public static function price(int $cents): string
    {
        return sprintf('%d.%02d', intdiv($cents, 100), $cents % 100);
    }
}
