<?php
// php-exts.php [--pause FIFO]: php-cli with the extensions Debian's php-*
// packages enable (php dlopens each one, RTLD_GLOBAL|RTLD_DEEPBIND), a
// little real work in several: gd, dom, sqlite3, intl, curl, mbstring.
// With --pause: `paused PID`, then wait until FIFO is written to.
$img = imagecreatetruecolor(8, 8); ob_start(); imagepng($img); $png = ob_get_clean();
$d = new DOMDocument(); $d->loadXML('<r><i/><i/></r>');
$db = new SQLite3(':memory:'); $db->exec('create table t(x)'); $db->exec('insert into t values (42)');
$n = new NumberFormatter('de_DE', NumberFormatter::DECIMAL);
$c = curl_version();
echo "png ", strlen($png), ", dom ", $d->getElementsByTagName('i')->length, ", sqlite ", $db->querySingle('select x from t'),
     ", intl ", $n->format(1234.5), ", curl ", $c['version'], ", mb ", mb_strlen("äöü"), ", mb_ereg ", mb_ereg_replace('b+', 'X', 'abbc'), "\n";
if ($argc == 3 && $argv[1] == '--pause') { echo "paused ", getmypid(), "\n"; file_get_contents($argv[2]); }
