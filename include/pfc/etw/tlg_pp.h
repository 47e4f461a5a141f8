/* tlg_pp.h — the preprocessor machinery of TraceLoggingProvider.h (docs/etw.md
 * "TraceLogging"): argument counting and per-field iteration for up to 99 fields. Names
 * start with _tlg_; include TraceLoggingProvider.h, not this file. */
#ifndef PFC_ETW_TLG_PP_H
#define PFC_ETW_TLG_PP_H

#define _tlg_CAT(a, b) _tlg_CAT_(a, b)
#define _tlg_CAT_(a, b) a##b
#define _tlg_CALL(f, args) f args
#define _tlg_CALLF(f, args) f args
#define _tlg_CALLP(f, args) f args
#define _tlg_CALLO(f, args) f args
#define _tlg_CALLX(f, args) f args
#define _tlg_FIRST(...) _tlg_FIRST_(__VA_ARGS__, ~)
#define _tlg_FIRST_(x, ...) x
#define _tlg_CLS(c, ...) c
#define _tlg_ARGS(c, ...) __VA_ARGS__
/* Calls `p(index, field)` for each field after the first element (the event name). */
#define _tlg_FOR(p, ...)                                                      \
  _tlg_CALLF(_tlg_CAT(_tlg_FE_, _tlg_CAT(_tlg_DEC_, _tlg_NARG(__VA_ARGS__))), \
             (p _tlg_CALL(_tlg_CAT(_tlg_TAIL_, _tlg_NARG(__VA_ARGS__)), (__VA_ARGS__))))
#define _tlg_NARG(...)                                                                             \
  _tlg_NARG_(__VA_ARGS__, 100, 99, 98, 97, 96, 95, 94, 93, 92, 91, 90, 89, 88, 87, 86, 85, 84, 83, \
             82, 81, 80, 79, 78, 77, 76, 75, 74, 73, 72, 71, 70, 69, 68, 67, 66, 65, 64, 63, 62,   \
             61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41,   \
             40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20,   \
             19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define _tlg_NARG_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17,     \
                   _18, _19, _20, _21, _22, _23, _24, _25, _26, _27, _28, _29, _30, _31, _32, _33, \
                   _34, _35, _36, _37, _38, _39, _40, _41, _42, _43, _44, _45, _46, _47, _48, _49, \
                   _50, _51, _52, _53, _54, _55, _56, _57, _58, _59, _60, _61, _62, _63, _64, _65, \
                   _66, _67, _68, _69, _70, _71, _72, _73, _74, _75, _76, _77, _78, _79, _80, _81, \
                   _82, _83, _84, _85, _86, _87, _88, _89, _90, _91, _92, _93, _94, _95, _96, _97, \
                   _98, _99, _100, N, ...)                                                         \
  N
#define _tlg_FE_0(p)
#define _tlg_FE_1(p, x) p(1, x)
#define _tlg_FE_2(p, x, ...) p(2, x) _tlg_FE_1(p, __VA_ARGS__)
#define _tlg_FE_3(p, x, ...) p(3, x) _tlg_FE_2(p, __VA_ARGS__)
#define _tlg_FE_4(p, x, ...) p(4, x) _tlg_FE_3(p, __VA_ARGS__)
#define _tlg_FE_5(p, x, ...) p(5, x) _tlg_FE_4(p, __VA_ARGS__)
#define _tlg_FE_6(p, x, ...) p(6, x) _tlg_FE_5(p, __VA_ARGS__)
#define _tlg_FE_7(p, x, ...) p(7, x) _tlg_FE_6(p, __VA_ARGS__)
#define _tlg_FE_8(p, x, ...) p(8, x) _tlg_FE_7(p, __VA_ARGS__)
#define _tlg_FE_9(p, x, ...) p(9, x) _tlg_FE_8(p, __VA_ARGS__)
#define _tlg_FE_10(p, x, ...) p(10, x) _tlg_FE_9(p, __VA_ARGS__)
#define _tlg_FE_11(p, x, ...) p(11, x) _tlg_FE_10(p, __VA_ARGS__)
#define _tlg_FE_12(p, x, ...) p(12, x) _tlg_FE_11(p, __VA_ARGS__)
#define _tlg_FE_13(p, x, ...) p(13, x) _tlg_FE_12(p, __VA_ARGS__)
#define _tlg_FE_14(p, x, ...) p(14, x) _tlg_FE_13(p, __VA_ARGS__)
#define _tlg_FE_15(p, x, ...) p(15, x) _tlg_FE_14(p, __VA_ARGS__)
#define _tlg_FE_16(p, x, ...) p(16, x) _tlg_FE_15(p, __VA_ARGS__)
#define _tlg_FE_17(p, x, ...) p(17, x) _tlg_FE_16(p, __VA_ARGS__)
#define _tlg_FE_18(p, x, ...) p(18, x) _tlg_FE_17(p, __VA_ARGS__)
#define _tlg_FE_19(p, x, ...) p(19, x) _tlg_FE_18(p, __VA_ARGS__)
#define _tlg_FE_20(p, x, ...) p(20, x) _tlg_FE_19(p, __VA_ARGS__)
#define _tlg_FE_21(p, x, ...) p(21, x) _tlg_FE_20(p, __VA_ARGS__)
#define _tlg_FE_22(p, x, ...) p(22, x) _tlg_FE_21(p, __VA_ARGS__)
#define _tlg_FE_23(p, x, ...) p(23, x) _tlg_FE_22(p, __VA_ARGS__)
#define _tlg_FE_24(p, x, ...) p(24, x) _tlg_FE_23(p, __VA_ARGS__)
#define _tlg_FE_25(p, x, ...) p(25, x) _tlg_FE_24(p, __VA_ARGS__)
#define _tlg_FE_26(p, x, ...) p(26, x) _tlg_FE_25(p, __VA_ARGS__)
#define _tlg_FE_27(p, x, ...) p(27, x) _tlg_FE_26(p, __VA_ARGS__)
#define _tlg_FE_28(p, x, ...) p(28, x) _tlg_FE_27(p, __VA_ARGS__)
#define _tlg_FE_29(p, x, ...) p(29, x) _tlg_FE_28(p, __VA_ARGS__)
#define _tlg_FE_30(p, x, ...) p(30, x) _tlg_FE_29(p, __VA_ARGS__)
#define _tlg_FE_31(p, x, ...) p(31, x) _tlg_FE_30(p, __VA_ARGS__)
#define _tlg_FE_32(p, x, ...) p(32, x) _tlg_FE_31(p, __VA_ARGS__)
#define _tlg_FE_33(p, x, ...) p(33, x) _tlg_FE_32(p, __VA_ARGS__)
#define _tlg_FE_34(p, x, ...) p(34, x) _tlg_FE_33(p, __VA_ARGS__)
#define _tlg_FE_35(p, x, ...) p(35, x) _tlg_FE_34(p, __VA_ARGS__)
#define _tlg_FE_36(p, x, ...) p(36, x) _tlg_FE_35(p, __VA_ARGS__)
#define _tlg_FE_37(p, x, ...) p(37, x) _tlg_FE_36(p, __VA_ARGS__)
#define _tlg_FE_38(p, x, ...) p(38, x) _tlg_FE_37(p, __VA_ARGS__)
#define _tlg_FE_39(p, x, ...) p(39, x) _tlg_FE_38(p, __VA_ARGS__)
#define _tlg_FE_40(p, x, ...) p(40, x) _tlg_FE_39(p, __VA_ARGS__)
#define _tlg_FE_41(p, x, ...) p(41, x) _tlg_FE_40(p, __VA_ARGS__)
#define _tlg_FE_42(p, x, ...) p(42, x) _tlg_FE_41(p, __VA_ARGS__)
#define _tlg_FE_43(p, x, ...) p(43, x) _tlg_FE_42(p, __VA_ARGS__)
#define _tlg_FE_44(p, x, ...) p(44, x) _tlg_FE_43(p, __VA_ARGS__)
#define _tlg_FE_45(p, x, ...) p(45, x) _tlg_FE_44(p, __VA_ARGS__)
#define _tlg_FE_46(p, x, ...) p(46, x) _tlg_FE_45(p, __VA_ARGS__)
#define _tlg_FE_47(p, x, ...) p(47, x) _tlg_FE_46(p, __VA_ARGS__)
#define _tlg_FE_48(p, x, ...) p(48, x) _tlg_FE_47(p, __VA_ARGS__)
#define _tlg_FE_49(p, x, ...) p(49, x) _tlg_FE_48(p, __VA_ARGS__)
#define _tlg_FE_50(p, x, ...) p(50, x) _tlg_FE_49(p, __VA_ARGS__)
#define _tlg_FE_51(p, x, ...) p(51, x) _tlg_FE_50(p, __VA_ARGS__)
#define _tlg_FE_52(p, x, ...) p(52, x) _tlg_FE_51(p, __VA_ARGS__)
#define _tlg_FE_53(p, x, ...) p(53, x) _tlg_FE_52(p, __VA_ARGS__)
#define _tlg_FE_54(p, x, ...) p(54, x) _tlg_FE_53(p, __VA_ARGS__)
#define _tlg_FE_55(p, x, ...) p(55, x) _tlg_FE_54(p, __VA_ARGS__)
#define _tlg_FE_56(p, x, ...) p(56, x) _tlg_FE_55(p, __VA_ARGS__)
#define _tlg_FE_57(p, x, ...) p(57, x) _tlg_FE_56(p, __VA_ARGS__)
#define _tlg_FE_58(p, x, ...) p(58, x) _tlg_FE_57(p, __VA_ARGS__)
#define _tlg_FE_59(p, x, ...) p(59, x) _tlg_FE_58(p, __VA_ARGS__)
#define _tlg_FE_60(p, x, ...) p(60, x) _tlg_FE_59(p, __VA_ARGS__)
#define _tlg_FE_61(p, x, ...) p(61, x) _tlg_FE_60(p, __VA_ARGS__)
#define _tlg_FE_62(p, x, ...) p(62, x) _tlg_FE_61(p, __VA_ARGS__)
#define _tlg_FE_63(p, x, ...) p(63, x) _tlg_FE_62(p, __VA_ARGS__)
#define _tlg_FE_64(p, x, ...) p(64, x) _tlg_FE_63(p, __VA_ARGS__)
#define _tlg_FE_65(p, x, ...) p(65, x) _tlg_FE_64(p, __VA_ARGS__)
#define _tlg_FE_66(p, x, ...) p(66, x) _tlg_FE_65(p, __VA_ARGS__)
#define _tlg_FE_67(p, x, ...) p(67, x) _tlg_FE_66(p, __VA_ARGS__)
#define _tlg_FE_68(p, x, ...) p(68, x) _tlg_FE_67(p, __VA_ARGS__)
#define _tlg_FE_69(p, x, ...) p(69, x) _tlg_FE_68(p, __VA_ARGS__)
#define _tlg_FE_70(p, x, ...) p(70, x) _tlg_FE_69(p, __VA_ARGS__)
#define _tlg_FE_71(p, x, ...) p(71, x) _tlg_FE_70(p, __VA_ARGS__)
#define _tlg_FE_72(p, x, ...) p(72, x) _tlg_FE_71(p, __VA_ARGS__)
#define _tlg_FE_73(p, x, ...) p(73, x) _tlg_FE_72(p, __VA_ARGS__)
#define _tlg_FE_74(p, x, ...) p(74, x) _tlg_FE_73(p, __VA_ARGS__)
#define _tlg_FE_75(p, x, ...) p(75, x) _tlg_FE_74(p, __VA_ARGS__)
#define _tlg_FE_76(p, x, ...) p(76, x) _tlg_FE_75(p, __VA_ARGS__)
#define _tlg_FE_77(p, x, ...) p(77, x) _tlg_FE_76(p, __VA_ARGS__)
#define _tlg_FE_78(p, x, ...) p(78, x) _tlg_FE_77(p, __VA_ARGS__)
#define _tlg_FE_79(p, x, ...) p(79, x) _tlg_FE_78(p, __VA_ARGS__)
#define _tlg_FE_80(p, x, ...) p(80, x) _tlg_FE_79(p, __VA_ARGS__)
#define _tlg_FE_81(p, x, ...) p(81, x) _tlg_FE_80(p, __VA_ARGS__)
#define _tlg_FE_82(p, x, ...) p(82, x) _tlg_FE_81(p, __VA_ARGS__)
#define _tlg_FE_83(p, x, ...) p(83, x) _tlg_FE_82(p, __VA_ARGS__)
#define _tlg_FE_84(p, x, ...) p(84, x) _tlg_FE_83(p, __VA_ARGS__)
#define _tlg_FE_85(p, x, ...) p(85, x) _tlg_FE_84(p, __VA_ARGS__)
#define _tlg_FE_86(p, x, ...) p(86, x) _tlg_FE_85(p, __VA_ARGS__)
#define _tlg_FE_87(p, x, ...) p(87, x) _tlg_FE_86(p, __VA_ARGS__)
#define _tlg_FE_88(p, x, ...) p(88, x) _tlg_FE_87(p, __VA_ARGS__)
#define _tlg_FE_89(p, x, ...) p(89, x) _tlg_FE_88(p, __VA_ARGS__)
#define _tlg_FE_90(p, x, ...) p(90, x) _tlg_FE_89(p, __VA_ARGS__)
#define _tlg_FE_91(p, x, ...) p(91, x) _tlg_FE_90(p, __VA_ARGS__)
#define _tlg_FE_92(p, x, ...) p(92, x) _tlg_FE_91(p, __VA_ARGS__)
#define _tlg_FE_93(p, x, ...) p(93, x) _tlg_FE_92(p, __VA_ARGS__)
#define _tlg_FE_94(p, x, ...) p(94, x) _tlg_FE_93(p, __VA_ARGS__)
#define _tlg_FE_95(p, x, ...) p(95, x) _tlg_FE_94(p, __VA_ARGS__)
#define _tlg_FE_96(p, x, ...) p(96, x) _tlg_FE_95(p, __VA_ARGS__)
#define _tlg_FE_97(p, x, ...) p(97, x) _tlg_FE_96(p, __VA_ARGS__)
#define _tlg_FE_98(p, x, ...) p(98, x) _tlg_FE_97(p, __VA_ARGS__)
#define _tlg_FE_99(p, x, ...) p(99, x) _tlg_FE_98(p, __VA_ARGS__)
#define _tlg_TAIL_1(x)
#define _tlg_TAIL_2(x, ...) , __VA_ARGS__
#define _tlg_TAIL_3(x, ...) , __VA_ARGS__
#define _tlg_TAIL_4(x, ...) , __VA_ARGS__
#define _tlg_TAIL_5(x, ...) , __VA_ARGS__
#define _tlg_TAIL_6(x, ...) , __VA_ARGS__
#define _tlg_TAIL_7(x, ...) , __VA_ARGS__
#define _tlg_TAIL_8(x, ...) , __VA_ARGS__
#define _tlg_TAIL_9(x, ...) , __VA_ARGS__
#define _tlg_TAIL_10(x, ...) , __VA_ARGS__
#define _tlg_TAIL_11(x, ...) , __VA_ARGS__
#define _tlg_TAIL_12(x, ...) , __VA_ARGS__
#define _tlg_TAIL_13(x, ...) , __VA_ARGS__
#define _tlg_TAIL_14(x, ...) , __VA_ARGS__
#define _tlg_TAIL_15(x, ...) , __VA_ARGS__
#define _tlg_TAIL_16(x, ...) , __VA_ARGS__
#define _tlg_TAIL_17(x, ...) , __VA_ARGS__
#define _tlg_TAIL_18(x, ...) , __VA_ARGS__
#define _tlg_TAIL_19(x, ...) , __VA_ARGS__
#define _tlg_TAIL_20(x, ...) , __VA_ARGS__
#define _tlg_TAIL_21(x, ...) , __VA_ARGS__
#define _tlg_TAIL_22(x, ...) , __VA_ARGS__
#define _tlg_TAIL_23(x, ...) , __VA_ARGS__
#define _tlg_TAIL_24(x, ...) , __VA_ARGS__
#define _tlg_TAIL_25(x, ...) , __VA_ARGS__
#define _tlg_TAIL_26(x, ...) , __VA_ARGS__
#define _tlg_TAIL_27(x, ...) , __VA_ARGS__
#define _tlg_TAIL_28(x, ...) , __VA_ARGS__
#define _tlg_TAIL_29(x, ...) , __VA_ARGS__
#define _tlg_TAIL_30(x, ...) , __VA_ARGS__
#define _tlg_TAIL_31(x, ...) , __VA_ARGS__
#define _tlg_TAIL_32(x, ...) , __VA_ARGS__
#define _tlg_TAIL_33(x, ...) , __VA_ARGS__
#define _tlg_TAIL_34(x, ...) , __VA_ARGS__
#define _tlg_TAIL_35(x, ...) , __VA_ARGS__
#define _tlg_TAIL_36(x, ...) , __VA_ARGS__
#define _tlg_TAIL_37(x, ...) , __VA_ARGS__
#define _tlg_TAIL_38(x, ...) , __VA_ARGS__
#define _tlg_TAIL_39(x, ...) , __VA_ARGS__
#define _tlg_TAIL_40(x, ...) , __VA_ARGS__
#define _tlg_TAIL_41(x, ...) , __VA_ARGS__
#define _tlg_TAIL_42(x, ...) , __VA_ARGS__
#define _tlg_TAIL_43(x, ...) , __VA_ARGS__
#define _tlg_TAIL_44(x, ...) , __VA_ARGS__
#define _tlg_TAIL_45(x, ...) , __VA_ARGS__
#define _tlg_TAIL_46(x, ...) , __VA_ARGS__
#define _tlg_TAIL_47(x, ...) , __VA_ARGS__
#define _tlg_TAIL_48(x, ...) , __VA_ARGS__
#define _tlg_TAIL_49(x, ...) , __VA_ARGS__
#define _tlg_TAIL_50(x, ...) , __VA_ARGS__
#define _tlg_TAIL_51(x, ...) , __VA_ARGS__
#define _tlg_TAIL_52(x, ...) , __VA_ARGS__
#define _tlg_TAIL_53(x, ...) , __VA_ARGS__
#define _tlg_TAIL_54(x, ...) , __VA_ARGS__
#define _tlg_TAIL_55(x, ...) , __VA_ARGS__
#define _tlg_TAIL_56(x, ...) , __VA_ARGS__
#define _tlg_TAIL_57(x, ...) , __VA_ARGS__
#define _tlg_TAIL_58(x, ...) , __VA_ARGS__
#define _tlg_TAIL_59(x, ...) , __VA_ARGS__
#define _tlg_TAIL_60(x, ...) , __VA_ARGS__
#define _tlg_TAIL_61(x, ...) , __VA_ARGS__
#define _tlg_TAIL_62(x, ...) , __VA_ARGS__
#define _tlg_TAIL_63(x, ...) , __VA_ARGS__
#define _tlg_TAIL_64(x, ...) , __VA_ARGS__
#define _tlg_TAIL_65(x, ...) , __VA_ARGS__
#define _tlg_TAIL_66(x, ...) , __VA_ARGS__
#define _tlg_TAIL_67(x, ...) , __VA_ARGS__
#define _tlg_TAIL_68(x, ...) , __VA_ARGS__
#define _tlg_TAIL_69(x, ...) , __VA_ARGS__
#define _tlg_TAIL_70(x, ...) , __VA_ARGS__
#define _tlg_TAIL_71(x, ...) , __VA_ARGS__
#define _tlg_TAIL_72(x, ...) , __VA_ARGS__
#define _tlg_TAIL_73(x, ...) , __VA_ARGS__
#define _tlg_TAIL_74(x, ...) , __VA_ARGS__
#define _tlg_TAIL_75(x, ...) , __VA_ARGS__
#define _tlg_TAIL_76(x, ...) , __VA_ARGS__
#define _tlg_TAIL_77(x, ...) , __VA_ARGS__
#define _tlg_TAIL_78(x, ...) , __VA_ARGS__
#define _tlg_TAIL_79(x, ...) , __VA_ARGS__
#define _tlg_TAIL_80(x, ...) , __VA_ARGS__
#define _tlg_TAIL_81(x, ...) , __VA_ARGS__
#define _tlg_TAIL_82(x, ...) , __VA_ARGS__
#define _tlg_TAIL_83(x, ...) , __VA_ARGS__
#define _tlg_TAIL_84(x, ...) , __VA_ARGS__
#define _tlg_TAIL_85(x, ...) , __VA_ARGS__
#define _tlg_TAIL_86(x, ...) , __VA_ARGS__
#define _tlg_TAIL_87(x, ...) , __VA_ARGS__
#define _tlg_TAIL_88(x, ...) , __VA_ARGS__
#define _tlg_TAIL_89(x, ...) , __VA_ARGS__
#define _tlg_TAIL_90(x, ...) , __VA_ARGS__
#define _tlg_TAIL_91(x, ...) , __VA_ARGS__
#define _tlg_TAIL_92(x, ...) , __VA_ARGS__
#define _tlg_TAIL_93(x, ...) , __VA_ARGS__
#define _tlg_TAIL_94(x, ...) , __VA_ARGS__
#define _tlg_TAIL_95(x, ...) , __VA_ARGS__
#define _tlg_TAIL_96(x, ...) , __VA_ARGS__
#define _tlg_TAIL_97(x, ...) , __VA_ARGS__
#define _tlg_TAIL_98(x, ...) , __VA_ARGS__
#define _tlg_TAIL_99(x, ...) , __VA_ARGS__
#define _tlg_TAIL_100(x, ...) , __VA_ARGS__
#define _tlg_DEC_1 0
#define _tlg_DEC_2 1
#define _tlg_DEC_3 2
#define _tlg_DEC_4 3
#define _tlg_DEC_5 4
#define _tlg_DEC_6 5
#define _tlg_DEC_7 6
#define _tlg_DEC_8 7
#define _tlg_DEC_9 8
#define _tlg_DEC_10 9
#define _tlg_DEC_11 10
#define _tlg_DEC_12 11
#define _tlg_DEC_13 12
#define _tlg_DEC_14 13
#define _tlg_DEC_15 14
#define _tlg_DEC_16 15
#define _tlg_DEC_17 16
#define _tlg_DEC_18 17
#define _tlg_DEC_19 18
#define _tlg_DEC_20 19
#define _tlg_DEC_21 20
#define _tlg_DEC_22 21
#define _tlg_DEC_23 22
#define _tlg_DEC_24 23
#define _tlg_DEC_25 24
#define _tlg_DEC_26 25
#define _tlg_DEC_27 26
#define _tlg_DEC_28 27
#define _tlg_DEC_29 28
#define _tlg_DEC_30 29
#define _tlg_DEC_31 30
#define _tlg_DEC_32 31
#define _tlg_DEC_33 32
#define _tlg_DEC_34 33
#define _tlg_DEC_35 34
#define _tlg_DEC_36 35
#define _tlg_DEC_37 36
#define _tlg_DEC_38 37
#define _tlg_DEC_39 38
#define _tlg_DEC_40 39
#define _tlg_DEC_41 40
#define _tlg_DEC_42 41
#define _tlg_DEC_43 42
#define _tlg_DEC_44 43
#define _tlg_DEC_45 44
#define _tlg_DEC_46 45
#define _tlg_DEC_47 46
#define _tlg_DEC_48 47
#define _tlg_DEC_49 48
#define _tlg_DEC_50 49
#define _tlg_DEC_51 50
#define _tlg_DEC_52 51
#define _tlg_DEC_53 52
#define _tlg_DEC_54 53
#define _tlg_DEC_55 54
#define _tlg_DEC_56 55
#define _tlg_DEC_57 56
#define _tlg_DEC_58 57
#define _tlg_DEC_59 58
#define _tlg_DEC_60 59
#define _tlg_DEC_61 60
#define _tlg_DEC_62 61
#define _tlg_DEC_63 62
#define _tlg_DEC_64 63
#define _tlg_DEC_65 64
#define _tlg_DEC_66 65
#define _tlg_DEC_67 66
#define _tlg_DEC_68 67
#define _tlg_DEC_69 68
#define _tlg_DEC_70 69
#define _tlg_DEC_71 70
#define _tlg_DEC_72 71
#define _tlg_DEC_73 72
#define _tlg_DEC_74 73
#define _tlg_DEC_75 74
#define _tlg_DEC_76 75
#define _tlg_DEC_77 76
#define _tlg_DEC_78 77
#define _tlg_DEC_79 78
#define _tlg_DEC_80 79
#define _tlg_DEC_81 80
#define _tlg_DEC_82 81
#define _tlg_DEC_83 82
#define _tlg_DEC_84 83
#define _tlg_DEC_85 84
#define _tlg_DEC_86 85
#define _tlg_DEC_87 86
#define _tlg_DEC_88 87
#define _tlg_DEC_89 88
#define _tlg_DEC_90 89
#define _tlg_DEC_91 90
#define _tlg_DEC_92 91
#define _tlg_DEC_93 92
#define _tlg_DEC_94 93
#define _tlg_DEC_95 94
#define _tlg_DEC_96 95
#define _tlg_DEC_97 96
#define _tlg_DEC_98 97
#define _tlg_DEC_99 98
#define _tlg_DEC_100 99

#endif /* PFC_ETW_TLG_PP_H */
