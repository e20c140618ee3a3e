#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-or-later
#
# One churn worker for the churn tests (test-churn.sh, tests/find):
#   churn.pl [--dirs] SECS DIR...
# cycles through the DIRs for SECS seconds: in each it creates 300 files,
# hard-links 100, renames 100, removes the previous generation there,
# makes and removes a directory.  With --dirs the directory gets 10 files
# and is renamed, first in place and then into the next DIR, before it is
# removed (directories moving under a reader).  Prints the counts.
use strict;
use warnings;

my $dirs_too = @ARGV && $ARGV[0] eq '--dirs' ? shift : '';
my ($secs, @dirs) = @ARGV;
my $end = time() + $secs;
my ($gen, $creat, $link, $ren, $unl, $mkd, $dren) = (0, 0, 0, 0, 0, 0, 0);
my %prev;

# Make directory $sub (with 10 files if --dirs); returns its final path
# and its files.
sub subdir {
	my ($d, $next, $g) = @_;
	my $sub = "$d/sub$g";
	my @files;

	mkdir($sub) or die "mkdir $sub: $!";
	$mkd++;
	return ($sub, []) unless $dirs_too;
	for my $i (0 .. 9) {
		open(my $fh, '>', "$sub/s$i") or die "$sub/s$i: $!";
		close($fh);
		$creat++;
	}
	for my $to ("$d/subr$g", "$next/subm$g") {
		rename($sub, $to) or die "rename $sub $to: $!";
		$sub = $to;
		$dren++;
	}
	return ($sub, [map { "$sub/s$_" } 0 .. 9]);
}

while (time() < $end) {
	my $d = $dirs[$gen % @dirs];
	my $next = $dirs[($gen + 1) % @dirs];
	my @names;
	for my $i (0 .. 299) {
		my $f = "$d/f${gen}_$i";
		open(my $fh, '>', $f) or die "$f: $!";
		print $fh "x" x ($i % 3) if $i % 5 == 0;
		close($fh);
		push @names, $f;
		$creat++;
	}
	for my $i (0 .. 99) {
		my $l = "$d/l${gen}_$i";
		link($names[$i], $l) or die "link $l: $!";
		push @names, $l;
		$link++;
	}
	for my $i (100 .. 199) {
		my $r = "$d/r${gen}_$i";
		rename($names[$i], $r) or die "rename $r: $!";
		$names[$i] = $r;
		$ren++;
	}
	my ($sub, $subfiles) = subdir($d, $next, $gen);
	if (my $old = $prev{$d}) {
		for my $f (@{$old->{files}}) {
			unlink($f) or die "unlink $f: $!";
			$unl++;
		}
		rmdir($old->{sub}) or die "rmdir $old->{sub}: $!";
	}
	$prev{$d} = { files => [@names, @$subfiles], sub => $sub };
	$gen++;
}
print "creates=$creat links=$link renames=$ren unlinks=$unl mkdirs=$mkd",
    ($dirs_too ? " dir_renames=$dren" : ""), "\n";
