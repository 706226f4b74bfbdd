<?php
// Reads a file the caller names, relative to the app's data directory, with a PDO database behind it.
function load_config(string $name): string {
    $path = getenv('APP_DATA_DIR') . '/' . $name;
    $text = @file_get_contents($path);
    if ($text === false) {
        throw new RuntimeException("Unable to read config file $path");
    }
    return $text;
}
echo load_config($argv[1]);
