/* pfc/etw/sal.h — the SAL source annotations of the SDK's sal.h / specstrings.h (_In_,
 * _Out_writes_(n), _Success_(expr), the older __in_ecount(n) forms, ...): checked only by
 * MSVC's /analyze, so they expand to nothing here, as they do for any compiler but MSVC.
 * Included by every ETW header (pfc_etw_types.h). The two legacy names `__in` and `__out`
 * are defined in C only: libstdc++ uses them as parameter names (<istream>, <string>), so
 * in C++ they would break standard headers included afterwards; remove them from ported
 * C++ declarations, or define PFC_ETW_SAL_IN_OUT before the first ETW header to have them
 * anyway (then include every standard C++ header first). docs/porting.md. */
#ifndef PFC_ETW_SAL_H
#define PFC_ETW_SAL_H

#define _In_
#define _Out_
#define _Inout_
#define _In_opt_
#define _Out_opt_
#define _Inout_opt_
#define _In_z_
#define _In_opt_z_
#define _Inout_z_
#define _Inout_opt_z_
#define _Outptr_
#define _Outptr_opt_
#define _Outptr_result_maybenull_
#define _Outptr_opt_result_maybenull_
#define _Outptr_result_z_
#define _Outptr_opt_result_z_
#define _Outptr_result_nullonfailure_
#define _COM_Outptr_
#define _COM_Outptr_opt_
#define _Deref_out_
#define _Deref_out_opt_
#define _Ret_maybenull_
#define _Ret_notnull_
#define _Ret_z_
#define _Ret_maybenull_z_
#define _Ret_valid_
#define _Must_inspect_result_
#define _Check_return_
#define _Use_decl_annotations_
#define _Reserved_
#define _Null_terminated_
#define _NullNull_terminated_
#define _Printf_format_string_
#define _Scanf_format_string_
#define _Field_z_
#define _Notnull_
#define _Maybenull_
#define _Pre_notnull_
#define _Pre_maybenull_
#define _Pre_valid_
#define _Pre_z_
#define _Post_z_
#define _Post_valid_
#define _Post_invalid_
#define _Post_notnull_
#define _Post_maybenull_
#define _Frees_ptr_
#define _Frees_ptr_opt_
#define _Result_nullonfailure_
#define _Result_zeroonfailure_
#define _Interlocked_operand_
#define _Strict_type_match_
#define _Points_to_data_
#define _Literal_
#define _Notliteral_
#define _Post_ptr_invalid_
#define _Out_z_
#define _Outref_
#define _Outref_result_maybenull_
#define _Analysis_noreturn_

#define _In_reads_(x)
#define _In_reads_opt_(x)
#define _In_reads_bytes_(x)
#define _In_reads_bytes_opt_(x)
#define _In_reads_z_(x)
#define _In_reads_opt_z_(x)
#define _In_reads_or_z_(x)
#define _In_reads_or_z_opt_(x)
#define _Out_writes_(x)
#define _Out_writes_opt_(x)
#define _Out_writes_bytes_(x)
#define _Out_writes_bytes_opt_(x)
#define _Out_writes_z_(x)
#define _Out_writes_opt_z_(x)
#define _Out_writes_all_(x)
#define _Out_writes_all_opt_(x)
#define _Out_writes_bytes_all_(x)
#define _Out_writes_bytes_all_opt_(x)
#define _Inout_updates_(x)
#define _Inout_updates_opt_(x)
#define _Inout_updates_bytes_(x)
#define _Inout_updates_bytes_opt_(x)
#define _Inout_updates_z_(x)
#define _Inout_updates_opt_z_(x)
#define _Inout_updates_all_(x)
#define _Inout_updates_bytes_all_(x)
#define _Outptr_result_buffer_(x)
#define _Outptr_opt_result_buffer_(x)
#define _Outptr_result_bytebuffer_(x)
#define _Outptr_opt_result_bytebuffer_(x)
#define _Outptr_result_buffer_maybenull_(x)
#define _Outptr_result_bytebuffer_maybenull_(x)
#define _Ret_writes_(x)
#define _Ret_writes_z_(x)
#define _Ret_writes_bytes_(x)
#define _Ret_writes_maybenull_(x)
#define _Ret_writes_bytes_maybenull_(x)
#define _Success_(x)
#define _Return_type_success_(x)
#define _Field_size_(x)
#define _Field_size_opt_(x)
#define _Field_size_bytes_(x)
#define _Field_size_bytes_opt_(x)
#define _Field_size_full_(x)
#define _Field_size_bytes_full_(x)
#define _Pre_satisfies_(x)
#define _Post_satisfies_(x)
#define _Post_equal_to_(x)
#define _Acquires_lock_(x)
#define _Releases_lock_(x)
#define _Requires_lock_held_(x)
#define _Requires_lock_not_held_(x)
#define _Acquires_exclusive_lock_(x)
#define _Releases_exclusive_lock_(x)
#define _Acquires_shared_lock_(x)
#define _Releases_shared_lock_(x)
#define _Guarded_by_(x)
#define _Write_guarded_by_(x)
#define _Requires_exclusive_lock_held_(x)
#define _Requires_shared_lock_held_(x)
#define _Pre_readable_size_(x)
#define _Pre_writable_size_(x)
#define _Pre_readable_byte_size_(x)
#define _Pre_writable_byte_size_(x)
#define _Post_readable_size_(x)
#define _Post_writable_size_(x)
#define _Post_readable_byte_size_(x)
#define _Post_writable_byte_size_(x)
#define _Readable_elements_(x)
#define _Readable_bytes_(x)
#define _Writable_elements_(x)
#define _Writable_bytes_(x)
#define _Struct_size_bytes_(x)
#define _In_count_(x)
#define _In_bytecount_(x)
#define _Out_cap_(x)
#define _Out_bytecap_(x)
#define _Deref_pre_z_(x)
#define _Deref_post_z_(x)
#define _Analysis_assume_(x) ((void)0)

#define _When_(x, y)
#define _Out_writes_to_(x, y)
#define _Out_writes_to_opt_(x, y)
#define _Out_writes_bytes_to_(x, y)
#define _Out_writes_bytes_to_opt_(x, y)
#define _Inout_updates_to_(x, y)
#define _Inout_updates_bytes_to_(x, y)
#define _Field_size_part_(x, y)
#define _Field_size_part_opt_(x, y)
#define _Field_size_bytes_part_(x, y)
#define _Field_size_bytes_part_opt_(x, y)
#define _Outptr_result_buffer_to_(x, y)
#define _Outptr_result_bytebuffer_to_(x, y)
#define _Ret_writes_to_(x, y)
#define _Ret_writes_bytes_to_(x, y)
#define _Out_writes_to_ptr_(x, y)
#define _At_(x, y)
#define _At_buffer_(x, y)
#define _In_range_(x, y)
#define _Out_range_(x, y)
#define _Ret_range_(x, y)
#define _Field_range_(x, y)
#define _Deref_in_range_(x, y)
#define _Deref_out_range_(x, y)

/* The older (Visual Studio 2005) annotations of specstrings.h. */
#define __inout
#define __in_opt
#define __out_opt
#define __inout_opt
#define __in_z
#define __in_opt_z
#define __deref_out
#define __deref_out_opt
#define __deref_inout
#define __checkReturn
#define __nullterminated
#define __notnull
#define __maybenull
#define __out_z
#define __inout_z
#define __in_ecount(x)
#define __in_bcount(x)
#define __out_ecount(x)
#define __out_bcount(x)
#define __inout_ecount(x)
#define __inout_bcount(x)
#define __in_ecount_opt(x)
#define __in_bcount_opt(x)
#define __out_ecount_opt(x)
#define __out_bcount_opt(x)
#define __inout_ecount_opt(x)
#define __inout_bcount_opt(x)
#define __deref_out_ecount(x)
#define __deref_out_bcount(x)
#define __field_ecount(x)
#define __field_bcount(x)
#define __field_ecount_opt(x)
#define __field_bcount_opt(x)
#define __success(x)
#define __out_ecount_z(x)
#define __in_ecount_z(x)
#define __out_ecount_part(x, y)
#define __out_bcount_part(x, y)
#define __inout_ecount_part(x, y)
#define __inout_bcount_part(x, y)
#define __out_ecount_part_opt(x, y)
#define __out_bcount_part_opt(x, y)
#define __field_ecount_part(x, y)
#define __field_bcount_part(x, y)
#if !defined(__cplusplus) || defined(PFC_ETW_SAL_IN_OUT)
#define __in
#define __out
#endif

#endif /* PFC_ETW_SAL_H */
