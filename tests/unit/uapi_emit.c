// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Print, as C11 static assertions, every size, offset and value that
 * lib/uapi_compat.h defines, as this build sees them (Debian 12's
 * <xfs/xfs.h> plus our definitions).  test-uapi-compat.sh compiles the
 * lines against xfslibs-dev 6.13's header: any mismatch fails to build.
 */
#include <stddef.h>
#include <stdio.h>

#include "uapi_compat.h"

#define VALUE(name) \
	printf("_Static_assert((unsigned long long)(%s) == %lluULL, " \
	       "\"value of %s\");\n", #name, (unsigned long long)(name), #name)
#define SIZE(type) \
	printf("_Static_assert(sizeof(%s) == %zu, \"size of %s\");\n", \
	       #type, sizeof(type), #type)
#define OFFSET(type, field) \
	printf("_Static_assert(offsetof(%s, %s) == %zu, " \
	       "\"offset of %s in %s\");\n", #type, #field, \
	       offsetof(type, field), #field, #type)

int
main(void)
{
	printf("#include <stddef.h>\n#include <xfs/xfs.h>\n");
	VALUE(XFS_BULK_IREQ_METADIR);
	VALUE(XFS_BS_SICK_DIRTREE);
	VALUE(XFS_FSOP_GEOM_FLAGS_EXCHANGE_RANGE);
	VALUE(XFS_FSOP_GEOM_FLAGS_PARENT);
	VALUE(XFS_FSOP_GEOM_FLAGS_METADIR);
	VALUE(XFS_GETPARENTS_OFLAG_ROOT);
	VALUE(XFS_GETPARENTS_OFLAG_DONE);
	VALUE(XFS_IOC_GETPARENTS);
	VALUE(XFS_IOC_GETPARENTS_BY_HANDLE);
	SIZE(struct xfs_getparents_rec);
	OFFSET(struct xfs_getparents_rec, gpr_parent);
	OFFSET(struct xfs_getparents_rec, gpr_reclen);
	OFFSET(struct xfs_getparents_rec, gpr_reserved);
	OFFSET(struct xfs_getparents_rec, gpr_name);
	SIZE(struct xfs_getparents);
	OFFSET(struct xfs_getparents, gp_cursor);
	OFFSET(struct xfs_getparents, gp_iflags);
	OFFSET(struct xfs_getparents, gp_oflags);
	OFFSET(struct xfs_getparents, gp_bufsize);
	OFFSET(struct xfs_getparents, gp_reserved);
	OFFSET(struct xfs_getparents, gp_buffer);
	SIZE(struct xfs_getparents_by_handle);
	OFFSET(struct xfs_getparents_by_handle, gph_handle);
	OFFSET(struct xfs_getparents_by_handle, gph_request);
	return 0;
}
