# standalone: the project stands alone.  No tracked file (sources,
# scripts, documents, test data, binary ones too) names a folder outside
# the repository: a parent's shared folder or an absolute path of the
# machine it was written on.  What such a folder taught is said in the
# project, citing the upstream source (kernel, rdma-core, pciutils, NCCL,
# perftest).  The patterns are spelled so that this file does not match.
if ! git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1; then
	skip "no file names a folder outside the repository" \
		"not a git tree (the list of tracked files comes from git)"
	return 0 2>/dev/null || exit 0
fi
up='\.\./shared'
abs='(^|[^A-Za-z0-9_.$}-])/wor[k]/'
git -C "$TOP" grep -l -E -e "$up" -e "$abs" >"$T/hits" 2>/dev/null
check_eq "no tracked file names a folder outside the repository" \
	"$(tr '\n' ' ' <"$T/hits")" ""
if [ -s "$T/hits" ]; then
	git -C "$TOP" grep -n -I -E -e "$up" -e "$abs" | head -10 | sed 's/^/#   /'
fi
