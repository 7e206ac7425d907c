module @jit_fn attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<64x32xf32>, %arg1: tensor<32xf32>, %arg2: tensor<32xf32>, %arg3: tensor<32xf32>, %arg4: tensor<32xf32>, %arg5: tensor<32x32xf32>, %arg6: tensor<32x96xf32>, %arg7: tensor<32x64xf32>, %arg8: tensor<64x32xf32>, %arg9: tensor<32xf32>, %arg10: tensor<32xf32>, %arg11: tensor<32xf32>, %arg12: tensor<32xf32>, %arg13: tensor<32x32xf32>, %arg14: tensor<32x96xf32>, %arg15: tensor<32x64xf32>, %arg16: tensor<64x32xf32>, %arg17: tensor<32xf32>, %arg18: tensor<32xf32>, %arg19: tensor<32xf32>, %arg20: tensor<32xf32>, %arg21: tensor<32x32xf32>, %arg22: tensor<32x96xf32>, %arg23: tensor<32x64xf32>, %arg24: tensor<64x32xf32>, %arg25: tensor<32xf32>, %arg26: tensor<32xf32>, %arg27: tensor<32xf32>, %arg28: tensor<32xf32>, %arg29: tensor<32x32xf32>, %arg30: tensor<32x96xf32>, %arg31: tensor<32x64xf32>, %arg32: tensor<64x32xf32>, %arg33: tensor<32xf32>, %arg34: tensor<32xf32>, %arg35: tensor<32xf32>, %arg36: tensor<32xf32>, %arg37: tensor<32x32xf32>, %arg38: tensor<32x96xf32>, %arg39: tensor<32x64xf32>, %arg40: tensor<64x32xf32>, %arg41: tensor<32xf32>, %arg42: tensor<32xf32>, %arg43: tensor<32xf32>, %arg44: tensor<32xf32>, %arg45: tensor<32x32xf32>, %arg46: tensor<32x96xf32>, %arg47: tensor<32x64xf32>, %arg48: tensor<64x32xf32>, %arg49: tensor<32xf32>, %arg50: tensor<32xf32>, %arg51: tensor<32xf32>, %arg52: tensor<32xf32>, %arg53: tensor<32x32xf32>, %arg54: tensor<32x96xf32>, %arg55: tensor<32x64xf32>, %arg56: tensor<64x32xf32>, %arg57: tensor<32xf32>, %arg58: tensor<32xf32>, %arg59: tensor<32xf32>, %arg60: tensor<32xf32>, %arg61: tensor<32x32xf32>, %arg62: tensor<32x96xf32>, %arg63: tensor<32x64xf32>, %arg64: tensor<64x32xf32>, %arg65: tensor<32xf32>, %arg66: tensor<32xf32>, %arg67: tensor<32xf32>, %arg68: tensor<32xf32>, %arg69: tensor<32x32xf32>, %arg70: tensor<32x96xf32>, %arg71: tensor<32x64xf32>, %arg72: tensor<64x32xf32>, %arg73: tensor<32xf32>, %arg74: tensor<32xf32>, %arg75: tensor<32xf32>, %arg76: tensor<32xf32>, %arg77: tensor<32x32xf32>, %arg78: tensor<32x96xf32>, %arg79: tensor<32x64xf32>, %arg80: tensor<64x32xf32>, %arg81: tensor<32xf32>, %arg82: tensor<32xf32>, %arg83: tensor<32xf32>, %arg84: tensor<32xf32>, %arg85: tensor<32x32xf32>, %arg86: tensor<32x96xf32>, %arg87: tensor<32x64xf32>, %arg88: tensor<64x32xf32>, %arg89: tensor<32xf32>, %arg90: tensor<32xf32>, %arg91: tensor<32xf32>, %arg92: tensor<32xf32>, %arg93: tensor<32x32xf32>, %arg94: tensor<32x96xf32>, %arg95: tensor<32x64xf32>, %arg96: tensor<2x?x32xf32>) -> (tensor<2x?x32xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<64> : tensor<i32>
    %c_1 = stablehlo.constant dense<-1> : tensor<i32>
    %c_2 = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg96, dim = 1 : (tensor<2x?x32xf32>) -> tensor<i32>
    %1 = stablehlo.compare GE, %0, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%1, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 't'. Using the following polymorphic shapes specifications: args[1].shape = (2, t, 32). Obtained dimension variables: 't' = {0} from specification 't' for dimension args[1].shape[1] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %2 = stablehlo.convert %0 : tensor<i32>
    %3 = stablehlo.multiply %2, %c_1 : tensor<i32>
    %4 = stablehlo.add %3, %c_0 : tensor<i32>
    %5 = stablehlo.compare GE, %4, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.convert %0 : tensor<i32>
    %7 = stablehlo.multiply %6, %c_1 : tensor<i32>
    %8 = stablehlo.add %7, %c_0 : tensor<i32>
    stablehlo.custom_call @shape_assertion(%5, %8, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the symbolic shape constraint t <= 64. Expected '- t + 64' to be greater or equal to 0, but found {0}.  Using the following polymorphic shapes specifications: args[1].shape = (2, t, 32). Obtained dimension variables: 't' = {1} from specification 't' for dimension args[1].shape[1] (= {1}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>) -> ()
    %9 = call @_wrapped_jax_export_main(%0, %arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8, %arg9, %arg10, %arg11, %arg12, %arg13, %arg14, %arg15, %arg16, %arg17, %arg18, %arg19, %arg20, %arg21, %arg22, %arg23, %arg24, %arg25, %arg26, %arg27, %arg28, %arg29, %arg30, %arg31, %arg32, %arg33, %arg34, %arg35, %arg36, %arg37, %arg38, %arg39, %arg40, %arg41, %arg42, %arg43, %arg44, %arg45, %arg46, %arg47, %arg48, %arg49, %arg50, %arg51, %arg52, %arg53, %arg54, %arg55, %arg56, %arg57, %arg58, %arg59, %arg60, %arg61, %arg62, %arg63, %arg64, %arg65, %arg66, %arg67, %arg68, %arg69, %arg70, %arg71, %arg72, %arg73, %arg74, %arg75, %arg76, %arg77, %arg78, %arg79, %arg80, %arg81, %arg82, %arg83, %arg84, %arg85, %arg86, %arg87, %arg88, %arg89, %arg90, %arg91, %arg92, %arg93, %arg94, %arg95, %arg96) : (tensor<i32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32x96xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32x96xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32x96xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32x96xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32x96xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32x96xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32x96xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32x96xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32x96xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32x96xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32x96xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32x96xf32>, tensor<32x64xf32>, tensor<2x?x32xf32>) -> tensor<2x?x32xf32>
    return %9 : tensor<2x?x32xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "t"}, %arg1: tensor<64x32xf32>, %arg2: tensor<32xf32>, %arg3: tensor<32xf32>, %arg4: tensor<32xf32>, %arg5: tensor<32xf32>, %arg6: tensor<32x32xf32>, %arg7: tensor<32x96xf32>, %arg8: tensor<32x64xf32>, %arg9: tensor<64x32xf32>, %arg10: tensor<32xf32>, %arg11: tensor<32xf32>, %arg12: tensor<32xf32>, %arg13: tensor<32xf32>, %arg14: tensor<32x32xf32>, %arg15: tensor<32x96xf32>, %arg16: tensor<32x64xf32>, %arg17: tensor<64x32xf32>, %arg18: tensor<32xf32>, %arg19: tensor<32xf32>, %arg20: tensor<32xf32>, %arg21: tensor<32xf32>, %arg22: tensor<32x32xf32>, %arg23: tensor<32x96xf32>, %arg24: tensor<32x64xf32>, %arg25: tensor<64x32xf32>, %arg26: tensor<32xf32>, %arg27: tensor<32xf32>, %arg28: tensor<32xf32>, %arg29: tensor<32xf32>, %arg30: tensor<32x32xf32>, %arg31: tensor<32x96xf32>, %arg32: tensor<32x64xf32>, %arg33: tensor<64x32xf32>, %arg34: tensor<32xf32>, %arg35: tensor<32xf32>, %arg36: tensor<32xf32>, %arg37: tensor<32xf32>, %arg38: tensor<32x32xf32>, %arg39: tensor<32x96xf32>, %arg40: tensor<32x64xf32>, %arg41: tensor<64x32xf32>, %arg42: tensor<32xf32>, %arg43: tensor<32xf32>, %arg44: tensor<32xf32>, %arg45: tensor<32xf32>, %arg46: tensor<32x32xf32>, %arg47: tensor<32x96xf32>, %arg48: tensor<32x64xf32>, %arg49: tensor<64x32xf32>, %arg50: tensor<32xf32>, %arg51: tensor<32xf32>, %arg52: tensor<32xf32>, %arg53: tensor<32xf32>, %arg54: tensor<32x32xf32>, %arg55: tensor<32x96xf32>, %arg56: tensor<32x64xf32>, %arg57: tensor<64x32xf32>, %arg58: tensor<32xf32>, %arg59: tensor<32xf32>, %arg60: tensor<32xf32>, %arg61: tensor<32xf32>, %arg62: tensor<32x32xf32>, %arg63: tensor<32x96xf32>, %arg64: tensor<32x64xf32>, %arg65: tensor<64x32xf32>, %arg66: tensor<32xf32>, %arg67: tensor<32xf32>, %arg68: tensor<32xf32>, %arg69: tensor<32xf32>, %arg70: tensor<32x32xf32>, %arg71: tensor<32x96xf32>, %arg72: tensor<32x64xf32>, %arg73: tensor<64x32xf32>, %arg74: tensor<32xf32>, %arg75: tensor<32xf32>, %arg76: tensor<32xf32>, %arg77: tensor<32xf32>, %arg78: tensor<32x32xf32>, %arg79: tensor<32x96xf32>, %arg80: tensor<32x64xf32>, %arg81: tensor<64x32xf32>, %arg82: tensor<32xf32>, %arg83: tensor<32xf32>, %arg84: tensor<32xf32>, %arg85: tensor<32xf32>, %arg86: tensor<32x32xf32>, %arg87: tensor<32x96xf32>, %arg88: tensor<32x64xf32>, %arg89: tensor<64x32xf32>, %arg90: tensor<32xf32>, %arg91: tensor<32xf32>, %arg92: tensor<32xf32>, %arg93: tensor<32xf32>, %arg94: tensor<32x32xf32>, %arg95: tensor<32x96xf32>, %arg96: tensor<32x64xf32>, %arg97: tensor<2x?x32xf32>) -> (tensor<2x?x32xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_1 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %cst_2 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_4 = stablehlo.constant dense<-1.000000e+30> : tensor<f32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %cst_5 = stablehlo.constant dense<2.82842708> : tensor<f32>
    %c_6 = stablehlo.constant dense<8> : tensor<1xi32>
    %c_7 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_8 = stablehlo.constant dense<96> : tensor<1xi32>
    %c_9 = stablehlo.constant dense<64> : tensor<1xi32>
    %c_10 = stablehlo.constant dense<0> : tensor<1xi32>
    %cst_11 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %c_12 = stablehlo.constant dense<32> : tensor<1xi32>
    %cst_13 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %c_14 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_15 = stablehlo.constant dense<2> : tensor<1xi32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg97 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %1 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2 = stablehlo.concatenate %c_15, %1, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %3 = stablehlo.dynamic_broadcast_in_dim %0, %2, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %4 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %5 = stablehlo.concatenate %c_15, %4, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %6 = stablehlo.dynamic_broadcast_in_dim %cst_13, %5, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %7 = stablehlo.divide %3, %6 : tensor<2x?x1xf32>
    %8 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %9 = stablehlo.concatenate %c_15, %8, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %10 = stablehlo.dynamic_broadcast_in_dim %7, %9, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %11 = stablehlo.subtract %arg97, %10 : tensor<2x?x32xf32>
    %12 = stablehlo.multiply %11, %11 : tensor<2x?x32xf32>
    %13 = stablehlo.reduce(%12 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %14 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %15 = stablehlo.concatenate %c_15, %14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %16 = stablehlo.dynamic_broadcast_in_dim %13, %15, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %17 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %18 = stablehlo.concatenate %c_15, %17, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %19 = stablehlo.dynamic_broadcast_in_dim %cst_13, %18, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %20 = stablehlo.divide %16, %19 : tensor<2x?x1xf32>
    %21 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %22 = stablehlo.concatenate %c_15, %21, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %23 = stablehlo.dynamic_broadcast_in_dim %7, %22, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %24 = stablehlo.subtract %arg97, %23 : tensor<2x?x32xf32>
    %25 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %26 = stablehlo.concatenate %c_15, %25, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %27 = stablehlo.dynamic_broadcast_in_dim %cst_11, %26, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %28 = stablehlo.add %20, %27 : tensor<2x?x1xf32>
    %29 = stablehlo.rsqrt %28 : tensor<2x?x1xf32>
    %30 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %31 = stablehlo.concatenate %c_15, %30, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %32 = stablehlo.dynamic_broadcast_in_dim %29, %31, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %33 = stablehlo.multiply %24, %32 : tensor<2x?x32xf32>
    %34 = stablehlo.broadcast_in_dim %arg3, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %35 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %36 = stablehlo.concatenate %c_15, %35, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %37 = stablehlo.dynamic_broadcast_in_dim %34, %36, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %38 = stablehlo.multiply %33, %37 : tensor<2x?x32xf32>
    %39 = stablehlo.broadcast_in_dim %arg2, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %40 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %41 = stablehlo.concatenate %c_15, %40, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %42 = stablehlo.dynamic_broadcast_in_dim %39, %41, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %43 = stablehlo.add %38, %42 : tensor<2x?x32xf32>
    %44 = stablehlo.dot_general %43, %arg7, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x96xf32>) -> tensor<2x?x96xf32>
    %45 = stablehlo.concatenate %c_10, %c_10, %c_10, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %46 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %47 = stablehlo.concatenate %c_15, %46, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %48 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %49 = stablehlo.real_dynamic_slice %44, %45, %47, %48 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %50 = stablehlo.concatenate %c_10, %c_10, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %51 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %52 = stablehlo.concatenate %c_15, %51, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %53 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %54 = stablehlo.real_dynamic_slice %44, %50, %52, %53 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %55 = stablehlo.concatenate %c_10, %c_10, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %56 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %57 = stablehlo.concatenate %c_15, %56, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %58 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %59 = stablehlo.real_dynamic_slice %44, %55, %57, %58 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %60 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %61 = stablehlo.concatenate %c_15, %60, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %62 = stablehlo.dynamic_reshape %49, %61 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %63 = stablehlo.transpose %62, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %64 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %65 = stablehlo.concatenate %c_15, %64, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %66 = stablehlo.dynamic_reshape %54, %65 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %67 = stablehlo.transpose %66, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %68 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %69 = stablehlo.concatenate %c_15, %68, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %70 = stablehlo.dynamic_reshape %59, %69 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %71 = stablehlo.transpose %70, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %72 = stablehlo.transpose %67, dims = [0, 1, 3, 2] : (tensor<2x4x?x8xf32>) -> tensor<2x4x8x?xf32>
    %73 = stablehlo.dot_general %63, %72, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x4x?x8xf32>, tensor<2x4x8x?xf32>) -> tensor<2x4x?x?xf32>
    %74 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %75 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %76 = stablehlo.concatenate %c_15, %c_7, %74, %75, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %77 = stablehlo.dynamic_broadcast_in_dim %cst_5, %76, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %78 = stablehlo.divide %73, %77 : tensor<2x4x?x?xf32>
    %79 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %80 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %81 = stablehlo.concatenate %79, %80, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %82 = stablehlo.dynamic_broadcast_in_dim %c, %81, dims = [] : (tensor<i1>, tensor<2xi32>) -> tensor<?x?xi1>
    %83 = call @tril(%arg0, %82) : (tensor<i32>, tensor<?x?xi1>) -> tensor<?x?xi1>
    %84 = call @_where(%arg0, %83, %78, %cst_4) : (tensor<i32>, tensor<?x?xi1>, tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?x?xf32>
    %85 = stablehlo.reduce(%84 init: %cst_3) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?xf32>
    %86 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %87 = stablehlo.concatenate %c_15, %c_7, %86, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %88 = stablehlo.dynamic_broadcast_in_dim %cst_3, %87, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x4x?xf32>
    %89 = stablehlo.maximum %88, %85 : tensor<2x4x?xf32>
    %90 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %91 = stablehlo.concatenate %c_15, %c_7, %90, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %92 = stablehlo.dynamic_broadcast_in_dim %89, %91, dims = [0, 1, 2] : (tensor<2x4x?xf32>, tensor<4xi32>) -> tensor<2x4x?x1xf32>
    %93 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %94 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %95 = stablehlo.concatenate %c_15, %c_7, %93, %94, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %96 = stablehlo.dynamic_broadcast_in_dim %92, %95, dims = [0, 1, 2, 3] : (tensor<2x4x?x1xf32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %97 = stablehlo.subtract %84, %96 : tensor<2x4x?x?xf32>
    %98 = stablehlo.exponential %97 : tensor<2x4x?x?xf32>
    %99 = stablehlo.reduce(%98 init: %cst_16) applies stablehlo.add across dimensions = [3] : (tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?xf32>
    %100 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %101 = stablehlo.concatenate %c_15, %c_7, %100, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %102 = stablehlo.dynamic_broadcast_in_dim %99, %101, dims = [0, 1, 2] : (tensor<2x4x?xf32>, tensor<4xi32>) -> tensor<2x4x?x1xf32>
    %103 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %104 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %105 = stablehlo.concatenate %c_15, %c_7, %103, %104, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %106 = stablehlo.dynamic_broadcast_in_dim %102, %105, dims = [0, 1, 2, 3] : (tensor<2x4x?x1xf32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %107 = stablehlo.divide %98, %106 : tensor<2x4x?x?xf32>
    %108 = stablehlo.dot_general %107, %71, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x4x?x?xf32>, tensor<2x4x?x8xf32>) -> tensor<2x4x?x8xf32>
    %109 = stablehlo.transpose %108, dims = [0, 2, 1, 3] : (tensor<2x4x?x8xf32>) -> tensor<2x?x4x8xf32>
    %110 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %111 = stablehlo.concatenate %c_15, %110, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %112 = stablehlo.dynamic_reshape %109, %111 : (tensor<2x?x4x8xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %113 = stablehlo.dot_general %112, %arg6, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x32xf32>) -> tensor<2x?x32xf32>
    %114 = stablehlo.add %arg97, %113 : tensor<2x?x32xf32>
    %115 = stablehlo.reduce(%114 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %116 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %117 = stablehlo.concatenate %c_15, %116, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %118 = stablehlo.dynamic_broadcast_in_dim %115, %117, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %119 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %120 = stablehlo.concatenate %c_15, %119, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %121 = stablehlo.dynamic_broadcast_in_dim %cst_13, %120, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %122 = stablehlo.divide %118, %121 : tensor<2x?x1xf32>
    %123 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %124 = stablehlo.concatenate %c_15, %123, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %125 = stablehlo.dynamic_broadcast_in_dim %122, %124, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %126 = stablehlo.subtract %114, %125 : tensor<2x?x32xf32>
    %127 = stablehlo.multiply %126, %126 : tensor<2x?x32xf32>
    %128 = stablehlo.reduce(%127 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %129 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %130 = stablehlo.concatenate %c_15, %129, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %131 = stablehlo.dynamic_broadcast_in_dim %128, %130, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %132 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %133 = stablehlo.concatenate %c_15, %132, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %134 = stablehlo.dynamic_broadcast_in_dim %cst_13, %133, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %135 = stablehlo.divide %131, %134 : tensor<2x?x1xf32>
    %136 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %137 = stablehlo.concatenate %c_15, %136, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %138 = stablehlo.dynamic_broadcast_in_dim %122, %137, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %139 = stablehlo.subtract %114, %138 : tensor<2x?x32xf32>
    %140 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %141 = stablehlo.concatenate %c_15, %140, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %142 = stablehlo.dynamic_broadcast_in_dim %cst_11, %141, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %143 = stablehlo.add %135, %142 : tensor<2x?x1xf32>
    %144 = stablehlo.rsqrt %143 : tensor<2x?x1xf32>
    %145 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %146 = stablehlo.concatenate %c_15, %145, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %147 = stablehlo.dynamic_broadcast_in_dim %144, %146, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %148 = stablehlo.multiply %139, %147 : tensor<2x?x32xf32>
    %149 = stablehlo.broadcast_in_dim %arg5, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %150 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %151 = stablehlo.concatenate %c_15, %150, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %152 = stablehlo.dynamic_broadcast_in_dim %149, %151, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %153 = stablehlo.multiply %148, %152 : tensor<2x?x32xf32>
    %154 = stablehlo.broadcast_in_dim %arg4, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %155 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %156 = stablehlo.concatenate %c_15, %155, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %157 = stablehlo.dynamic_broadcast_in_dim %154, %156, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %158 = stablehlo.add %153, %157 : tensor<2x?x32xf32>
    %159 = stablehlo.dot_general %158, %arg8, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x64xf32>) -> tensor<2x?x64xf32>
    %160 = stablehlo.multiply %159, %159 : tensor<2x?x64xf32>
    %161 = stablehlo.multiply %160, %159 : tensor<2x?x64xf32>
    %162 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %163 = stablehlo.concatenate %c_15, %162, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %164 = stablehlo.dynamic_broadcast_in_dim %cst_2, %163, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %165 = stablehlo.multiply %164, %161 : tensor<2x?x64xf32>
    %166 = stablehlo.add %159, %165 : tensor<2x?x64xf32>
    %167 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %168 = stablehlo.concatenate %c_15, %167, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %169 = stablehlo.dynamic_broadcast_in_dim %cst_1, %168, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %170 = stablehlo.multiply %169, %166 : tensor<2x?x64xf32>
    %171 = stablehlo.tanh %170 : tensor<2x?x64xf32>
    %172 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %173 = stablehlo.concatenate %c_15, %172, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %174 = stablehlo.dynamic_broadcast_in_dim %cst_0, %173, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %175 = stablehlo.add %174, %171 : tensor<2x?x64xf32>
    %176 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %177 = stablehlo.concatenate %c_15, %176, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %178 = stablehlo.dynamic_broadcast_in_dim %cst, %177, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %179 = stablehlo.multiply %178, %175 : tensor<2x?x64xf32>
    %180 = stablehlo.multiply %159, %179 : tensor<2x?x64xf32>
    %181 = stablehlo.dot_general %180, %arg1, contracting_dims = [2] x [0] : (tensor<2x?x64xf32>, tensor<64x32xf32>) -> tensor<2x?x32xf32>
    %182 = stablehlo.add %114, %181 : tensor<2x?x32xf32>
    %183 = stablehlo.reduce(%182 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %184 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %185 = stablehlo.concatenate %c_15, %184, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %186 = stablehlo.dynamic_broadcast_in_dim %183, %185, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %187 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %188 = stablehlo.concatenate %c_15, %187, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %189 = stablehlo.dynamic_broadcast_in_dim %cst_13, %188, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %190 = stablehlo.divide %186, %189 : tensor<2x?x1xf32>
    %191 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %192 = stablehlo.concatenate %c_15, %191, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %193 = stablehlo.dynamic_broadcast_in_dim %190, %192, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %194 = stablehlo.subtract %182, %193 : tensor<2x?x32xf32>
    %195 = stablehlo.multiply %194, %194 : tensor<2x?x32xf32>
    %196 = stablehlo.reduce(%195 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %197 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %198 = stablehlo.concatenate %c_15, %197, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %199 = stablehlo.dynamic_broadcast_in_dim %196, %198, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %200 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %201 = stablehlo.concatenate %c_15, %200, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %202 = stablehlo.dynamic_broadcast_in_dim %cst_13, %201, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %203 = stablehlo.divide %199, %202 : tensor<2x?x1xf32>
    %204 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %205 = stablehlo.concatenate %c_15, %204, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %206 = stablehlo.dynamic_broadcast_in_dim %190, %205, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %207 = stablehlo.subtract %182, %206 : tensor<2x?x32xf32>
    %208 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %209 = stablehlo.concatenate %c_15, %208, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %210 = stablehlo.dynamic_broadcast_in_dim %cst_11, %209, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %211 = stablehlo.add %203, %210 : tensor<2x?x1xf32>
    %212 = stablehlo.rsqrt %211 : tensor<2x?x1xf32>
    %213 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %214 = stablehlo.concatenate %c_15, %213, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %215 = stablehlo.dynamic_broadcast_in_dim %212, %214, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %216 = stablehlo.multiply %207, %215 : tensor<2x?x32xf32>
    %217 = stablehlo.broadcast_in_dim %arg11, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %218 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %219 = stablehlo.concatenate %c_15, %218, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %220 = stablehlo.dynamic_broadcast_in_dim %217, %219, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %221 = stablehlo.multiply %216, %220 : tensor<2x?x32xf32>
    %222 = stablehlo.broadcast_in_dim %arg10, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %223 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %224 = stablehlo.concatenate %c_15, %223, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %225 = stablehlo.dynamic_broadcast_in_dim %222, %224, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %226 = stablehlo.add %221, %225 : tensor<2x?x32xf32>
    %227 = stablehlo.dot_general %226, %arg15, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x96xf32>) -> tensor<2x?x96xf32>
    %228 = stablehlo.concatenate %c_10, %c_10, %c_10, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %229 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %230 = stablehlo.concatenate %c_15, %229, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %231 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %232 = stablehlo.real_dynamic_slice %227, %228, %230, %231 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %233 = stablehlo.concatenate %c_10, %c_10, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %234 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %235 = stablehlo.concatenate %c_15, %234, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %236 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %237 = stablehlo.real_dynamic_slice %227, %233, %235, %236 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %238 = stablehlo.concatenate %c_10, %c_10, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %239 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %240 = stablehlo.concatenate %c_15, %239, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %241 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %242 = stablehlo.real_dynamic_slice %227, %238, %240, %241 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %243 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %244 = stablehlo.concatenate %c_15, %243, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %245 = stablehlo.dynamic_reshape %232, %244 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %246 = stablehlo.transpose %245, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %247 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %248 = stablehlo.concatenate %c_15, %247, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %249 = stablehlo.dynamic_reshape %237, %248 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %250 = stablehlo.transpose %249, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %251 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %252 = stablehlo.concatenate %c_15, %251, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %253 = stablehlo.dynamic_reshape %242, %252 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %254 = stablehlo.transpose %253, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %255 = stablehlo.transpose %250, dims = [0, 1, 3, 2] : (tensor<2x4x?x8xf32>) -> tensor<2x4x8x?xf32>
    %256 = stablehlo.dot_general %246, %255, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x4x?x8xf32>, tensor<2x4x8x?xf32>) -> tensor<2x4x?x?xf32>
    %257 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %258 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %259 = stablehlo.concatenate %c_15, %c_7, %257, %258, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %260 = stablehlo.dynamic_broadcast_in_dim %cst_5, %259, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %261 = stablehlo.divide %256, %260 : tensor<2x4x?x?xf32>
    %262 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %263 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %264 = stablehlo.concatenate %262, %263, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %265 = stablehlo.dynamic_broadcast_in_dim %c, %264, dims = [] : (tensor<i1>, tensor<2xi32>) -> tensor<?x?xi1>
    %266 = call @tril(%arg0, %265) : (tensor<i32>, tensor<?x?xi1>) -> tensor<?x?xi1>
    %267 = call @_where(%arg0, %266, %261, %cst_4) : (tensor<i32>, tensor<?x?xi1>, tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?x?xf32>
    %268 = stablehlo.reduce(%267 init: %cst_3) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?xf32>
    %269 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %270 = stablehlo.concatenate %c_15, %c_7, %269, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %271 = stablehlo.dynamic_broadcast_in_dim %cst_3, %270, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x4x?xf32>
    %272 = stablehlo.maximum %271, %268 : tensor<2x4x?xf32>
    %273 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %274 = stablehlo.concatenate %c_15, %c_7, %273, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %275 = stablehlo.dynamic_broadcast_in_dim %272, %274, dims = [0, 1, 2] : (tensor<2x4x?xf32>, tensor<4xi32>) -> tensor<2x4x?x1xf32>
    %276 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %277 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %278 = stablehlo.concatenate %c_15, %c_7, %276, %277, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %279 = stablehlo.dynamic_broadcast_in_dim %275, %278, dims = [0, 1, 2, 3] : (tensor<2x4x?x1xf32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %280 = stablehlo.subtract %267, %279 : tensor<2x4x?x?xf32>
    %281 = stablehlo.exponential %280 : tensor<2x4x?x?xf32>
    %282 = stablehlo.reduce(%281 init: %cst_16) applies stablehlo.add across dimensions = [3] : (tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?xf32>
    %283 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %284 = stablehlo.concatenate %c_15, %c_7, %283, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %285 = stablehlo.dynamic_broadcast_in_dim %282, %284, dims = [0, 1, 2] : (tensor<2x4x?xf32>, tensor<4xi32>) -> tensor<2x4x?x1xf32>
    %286 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %287 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %288 = stablehlo.concatenate %c_15, %c_7, %286, %287, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %289 = stablehlo.dynamic_broadcast_in_dim %285, %288, dims = [0, 1, 2, 3] : (tensor<2x4x?x1xf32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %290 = stablehlo.divide %281, %289 : tensor<2x4x?x?xf32>
    %291 = stablehlo.dot_general %290, %254, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x4x?x?xf32>, tensor<2x4x?x8xf32>) -> tensor<2x4x?x8xf32>
    %292 = stablehlo.transpose %291, dims = [0, 2, 1, 3] : (tensor<2x4x?x8xf32>) -> tensor<2x?x4x8xf32>
    %293 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %294 = stablehlo.concatenate %c_15, %293, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %295 = stablehlo.dynamic_reshape %292, %294 : (tensor<2x?x4x8xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %296 = stablehlo.dot_general %295, %arg14, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x32xf32>) -> tensor<2x?x32xf32>
    %297 = stablehlo.add %182, %296 : tensor<2x?x32xf32>
    %298 = stablehlo.reduce(%297 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %299 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %300 = stablehlo.concatenate %c_15, %299, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %301 = stablehlo.dynamic_broadcast_in_dim %298, %300, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %302 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %303 = stablehlo.concatenate %c_15, %302, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %304 = stablehlo.dynamic_broadcast_in_dim %cst_13, %303, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %305 = stablehlo.divide %301, %304 : tensor<2x?x1xf32>
    %306 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %307 = stablehlo.concatenate %c_15, %306, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %308 = stablehlo.dynamic_broadcast_in_dim %305, %307, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %309 = stablehlo.subtract %297, %308 : tensor<2x?x32xf32>
    %310 = stablehlo.multiply %309, %309 : tensor<2x?x32xf32>
    %311 = stablehlo.reduce(%310 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %312 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %313 = stablehlo.concatenate %c_15, %312, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %314 = stablehlo.dynamic_broadcast_in_dim %311, %313, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %315 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %316 = stablehlo.concatenate %c_15, %315, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %317 = stablehlo.dynamic_broadcast_in_dim %cst_13, %316, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %318 = stablehlo.divide %314, %317 : tensor<2x?x1xf32>
    %319 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %320 = stablehlo.concatenate %c_15, %319, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %321 = stablehlo.dynamic_broadcast_in_dim %305, %320, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %322 = stablehlo.subtract %297, %321 : tensor<2x?x32xf32>
    %323 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %324 = stablehlo.concatenate %c_15, %323, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %325 = stablehlo.dynamic_broadcast_in_dim %cst_11, %324, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %326 = stablehlo.add %318, %325 : tensor<2x?x1xf32>
    %327 = stablehlo.rsqrt %326 : tensor<2x?x1xf32>
    %328 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %329 = stablehlo.concatenate %c_15, %328, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %330 = stablehlo.dynamic_broadcast_in_dim %327, %329, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %331 = stablehlo.multiply %322, %330 : tensor<2x?x32xf32>
    %332 = stablehlo.broadcast_in_dim %arg13, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %333 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %334 = stablehlo.concatenate %c_15, %333, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %335 = stablehlo.dynamic_broadcast_in_dim %332, %334, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %336 = stablehlo.multiply %331, %335 : tensor<2x?x32xf32>
    %337 = stablehlo.broadcast_in_dim %arg12, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %338 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %339 = stablehlo.concatenate %c_15, %338, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %340 = stablehlo.dynamic_broadcast_in_dim %337, %339, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %341 = stablehlo.add %336, %340 : tensor<2x?x32xf32>
    %342 = stablehlo.dot_general %341, %arg16, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x64xf32>) -> tensor<2x?x64xf32>
    %343 = stablehlo.multiply %342, %342 : tensor<2x?x64xf32>
    %344 = stablehlo.multiply %343, %342 : tensor<2x?x64xf32>
    %345 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %346 = stablehlo.concatenate %c_15, %345, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %347 = stablehlo.dynamic_broadcast_in_dim %cst_2, %346, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %348 = stablehlo.multiply %347, %344 : tensor<2x?x64xf32>
    %349 = stablehlo.add %342, %348 : tensor<2x?x64xf32>
    %350 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %351 = stablehlo.concatenate %c_15, %350, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %352 = stablehlo.dynamic_broadcast_in_dim %cst_1, %351, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %353 = stablehlo.multiply %352, %349 : tensor<2x?x64xf32>
    %354 = stablehlo.tanh %353 : tensor<2x?x64xf32>
    %355 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %356 = stablehlo.concatenate %c_15, %355, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %357 = stablehlo.dynamic_broadcast_in_dim %cst_0, %356, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %358 = stablehlo.add %357, %354 : tensor<2x?x64xf32>
    %359 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %360 = stablehlo.concatenate %c_15, %359, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %361 = stablehlo.dynamic_broadcast_in_dim %cst, %360, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %362 = stablehlo.multiply %361, %358 : tensor<2x?x64xf32>
    %363 = stablehlo.multiply %342, %362 : tensor<2x?x64xf32>
    %364 = stablehlo.dot_general %363, %arg9, contracting_dims = [2] x [0] : (tensor<2x?x64xf32>, tensor<64x32xf32>) -> tensor<2x?x32xf32>
    %365 = stablehlo.add %297, %364 : tensor<2x?x32xf32>
    %366 = stablehlo.reduce(%365 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %367 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %368 = stablehlo.concatenate %c_15, %367, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %369 = stablehlo.dynamic_broadcast_in_dim %366, %368, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %370 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %371 = stablehlo.concatenate %c_15, %370, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %372 = stablehlo.dynamic_broadcast_in_dim %cst_13, %371, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %373 = stablehlo.divide %369, %372 : tensor<2x?x1xf32>
    %374 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %375 = stablehlo.concatenate %c_15, %374, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %376 = stablehlo.dynamic_broadcast_in_dim %373, %375, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %377 = stablehlo.subtract %365, %376 : tensor<2x?x32xf32>
    %378 = stablehlo.multiply %377, %377 : tensor<2x?x32xf32>
    %379 = stablehlo.reduce(%378 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %380 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %381 = stablehlo.concatenate %c_15, %380, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %382 = stablehlo.dynamic_broadcast_in_dim %379, %381, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %383 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %384 = stablehlo.concatenate %c_15, %383, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %385 = stablehlo.dynamic_broadcast_in_dim %cst_13, %384, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %386 = stablehlo.divide %382, %385 : tensor<2x?x1xf32>
    %387 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %388 = stablehlo.concatenate %c_15, %387, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %389 = stablehlo.dynamic_broadcast_in_dim %373, %388, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %390 = stablehlo.subtract %365, %389 : tensor<2x?x32xf32>
    %391 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %392 = stablehlo.concatenate %c_15, %391, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %393 = stablehlo.dynamic_broadcast_in_dim %cst_11, %392, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %394 = stablehlo.add %386, %393 : tensor<2x?x1xf32>
    %395 = stablehlo.rsqrt %394 : tensor<2x?x1xf32>
    %396 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %397 = stablehlo.concatenate %c_15, %396, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %398 = stablehlo.dynamic_broadcast_in_dim %395, %397, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %399 = stablehlo.multiply %390, %398 : tensor<2x?x32xf32>
    %400 = stablehlo.broadcast_in_dim %arg19, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %401 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %402 = stablehlo.concatenate %c_15, %401, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %403 = stablehlo.dynamic_broadcast_in_dim %400, %402, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %404 = stablehlo.multiply %399, %403 : tensor<2x?x32xf32>
    %405 = stablehlo.broadcast_in_dim %arg18, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %406 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %407 = stablehlo.concatenate %c_15, %406, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %408 = stablehlo.dynamic_broadcast_in_dim %405, %407, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %409 = stablehlo.add %404, %408 : tensor<2x?x32xf32>
    %410 = stablehlo.dot_general %409, %arg23, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x96xf32>) -> tensor<2x?x96xf32>
    %411 = stablehlo.concatenate %c_10, %c_10, %c_10, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %412 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %413 = stablehlo.concatenate %c_15, %412, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %414 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %415 = stablehlo.real_dynamic_slice %410, %411, %413, %414 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %416 = stablehlo.concatenate %c_10, %c_10, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %417 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %418 = stablehlo.concatenate %c_15, %417, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %419 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %420 = stablehlo.real_dynamic_slice %410, %416, %418, %419 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %421 = stablehlo.concatenate %c_10, %c_10, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %422 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %423 = stablehlo.concatenate %c_15, %422, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %424 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %425 = stablehlo.real_dynamic_slice %410, %421, %423, %424 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %426 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %427 = stablehlo.concatenate %c_15, %426, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %428 = stablehlo.dynamic_reshape %415, %427 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %429 = stablehlo.transpose %428, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %430 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %431 = stablehlo.concatenate %c_15, %430, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %432 = stablehlo.dynamic_reshape %420, %431 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %433 = stablehlo.transpose %432, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %434 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %435 = stablehlo.concatenate %c_15, %434, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %436 = stablehlo.dynamic_reshape %425, %435 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %437 = stablehlo.transpose %436, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %438 = stablehlo.transpose %433, dims = [0, 1, 3, 2] : (tensor<2x4x?x8xf32>) -> tensor<2x4x8x?xf32>
    %439 = stablehlo.dot_general %429, %438, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x4x?x8xf32>, tensor<2x4x8x?xf32>) -> tensor<2x4x?x?xf32>
    %440 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %441 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %442 = stablehlo.concatenate %c_15, %c_7, %440, %441, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %443 = stablehlo.dynamic_broadcast_in_dim %cst_5, %442, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %444 = stablehlo.divide %439, %443 : tensor<2x4x?x?xf32>
    %445 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %446 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %447 = stablehlo.concatenate %445, %446, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %448 = stablehlo.dynamic_broadcast_in_dim %c, %447, dims = [] : (tensor<i1>, tensor<2xi32>) -> tensor<?x?xi1>
    %449 = call @tril(%arg0, %448) : (tensor<i32>, tensor<?x?xi1>) -> tensor<?x?xi1>
    %450 = call @_where(%arg0, %449, %444, %cst_4) : (tensor<i32>, tensor<?x?xi1>, tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?x?xf32>
    %451 = stablehlo.reduce(%450 init: %cst_3) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?xf32>
    %452 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %453 = stablehlo.concatenate %c_15, %c_7, %452, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %454 = stablehlo.dynamic_broadcast_in_dim %cst_3, %453, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x4x?xf32>
    %455 = stablehlo.maximum %454, %451 : tensor<2x4x?xf32>
    %456 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %457 = stablehlo.concatenate %c_15, %c_7, %456, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %458 = stablehlo.dynamic_broadcast_in_dim %455, %457, dims = [0, 1, 2] : (tensor<2x4x?xf32>, tensor<4xi32>) -> tensor<2x4x?x1xf32>
    %459 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %460 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %461 = stablehlo.concatenate %c_15, %c_7, %459, %460, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %462 = stablehlo.dynamic_broadcast_in_dim %458, %461, dims = [0, 1, 2, 3] : (tensor<2x4x?x1xf32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %463 = stablehlo.subtract %450, %462 : tensor<2x4x?x?xf32>
    %464 = stablehlo.exponential %463 : tensor<2x4x?x?xf32>
    %465 = stablehlo.reduce(%464 init: %cst_16) applies stablehlo.add across dimensions = [3] : (tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?xf32>
    %466 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %467 = stablehlo.concatenate %c_15, %c_7, %466, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %468 = stablehlo.dynamic_broadcast_in_dim %465, %467, dims = [0, 1, 2] : (tensor<2x4x?xf32>, tensor<4xi32>) -> tensor<2x4x?x1xf32>
    %469 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %470 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %471 = stablehlo.concatenate %c_15, %c_7, %469, %470, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %472 = stablehlo.dynamic_broadcast_in_dim %468, %471, dims = [0, 1, 2, 3] : (tensor<2x4x?x1xf32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %473 = stablehlo.divide %464, %472 : tensor<2x4x?x?xf32>
    %474 = stablehlo.dot_general %473, %437, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x4x?x?xf32>, tensor<2x4x?x8xf32>) -> tensor<2x4x?x8xf32>
    %475 = stablehlo.transpose %474, dims = [0, 2, 1, 3] : (tensor<2x4x?x8xf32>) -> tensor<2x?x4x8xf32>
    %476 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %477 = stablehlo.concatenate %c_15, %476, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %478 = stablehlo.dynamic_reshape %475, %477 : (tensor<2x?x4x8xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %479 = stablehlo.dot_general %478, %arg22, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x32xf32>) -> tensor<2x?x32xf32>
    %480 = stablehlo.add %365, %479 : tensor<2x?x32xf32>
    %481 = stablehlo.reduce(%480 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %482 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %483 = stablehlo.concatenate %c_15, %482, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %484 = stablehlo.dynamic_broadcast_in_dim %481, %483, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %485 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %486 = stablehlo.concatenate %c_15, %485, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %487 = stablehlo.dynamic_broadcast_in_dim %cst_13, %486, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %488 = stablehlo.divide %484, %487 : tensor<2x?x1xf32>
    %489 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %490 = stablehlo.concatenate %c_15, %489, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %491 = stablehlo.dynamic_broadcast_in_dim %488, %490, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %492 = stablehlo.subtract %480, %491 : tensor<2x?x32xf32>
    %493 = stablehlo.multiply %492, %492 : tensor<2x?x32xf32>
    %494 = stablehlo.reduce(%493 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %495 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %496 = stablehlo.concatenate %c_15, %495, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %497 = stablehlo.dynamic_broadcast_in_dim %494, %496, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %498 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %499 = stablehlo.concatenate %c_15, %498, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %500 = stablehlo.dynamic_broadcast_in_dim %cst_13, %499, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %501 = stablehlo.divide %497, %500 : tensor<2x?x1xf32>
    %502 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %503 = stablehlo.concatenate %c_15, %502, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %504 = stablehlo.dynamic_broadcast_in_dim %488, %503, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %505 = stablehlo.subtract %480, %504 : tensor<2x?x32xf32>
    %506 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %507 = stablehlo.concatenate %c_15, %506, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %508 = stablehlo.dynamic_broadcast_in_dim %cst_11, %507, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %509 = stablehlo.add %501, %508 : tensor<2x?x1xf32>
    %510 = stablehlo.rsqrt %509 : tensor<2x?x1xf32>
    %511 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %512 = stablehlo.concatenate %c_15, %511, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %513 = stablehlo.dynamic_broadcast_in_dim %510, %512, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %514 = stablehlo.multiply %505, %513 : tensor<2x?x32xf32>
    %515 = stablehlo.broadcast_in_dim %arg21, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %516 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %517 = stablehlo.concatenate %c_15, %516, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %518 = stablehlo.dynamic_broadcast_in_dim %515, %517, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %519 = stablehlo.multiply %514, %518 : tensor<2x?x32xf32>
    %520 = stablehlo.broadcast_in_dim %arg20, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %521 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %522 = stablehlo.concatenate %c_15, %521, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %523 = stablehlo.dynamic_broadcast_in_dim %520, %522, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %524 = stablehlo.add %519, %523 : tensor<2x?x32xf32>
    %525 = stablehlo.dot_general %524, %arg24, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x64xf32>) -> tensor<2x?x64xf32>
    %526 = stablehlo.multiply %525, %525 : tensor<2x?x64xf32>
    %527 = stablehlo.multiply %526, %525 : tensor<2x?x64xf32>
    %528 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %529 = stablehlo.concatenate %c_15, %528, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %530 = stablehlo.dynamic_broadcast_in_dim %cst_2, %529, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %531 = stablehlo.multiply %530, %527 : tensor<2x?x64xf32>
    %532 = stablehlo.add %525, %531 : tensor<2x?x64xf32>
    %533 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %534 = stablehlo.concatenate %c_15, %533, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %535 = stablehlo.dynamic_broadcast_in_dim %cst_1, %534, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %536 = stablehlo.multiply %535, %532 : tensor<2x?x64xf32>
    %537 = stablehlo.tanh %536 : tensor<2x?x64xf32>
    %538 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %539 = stablehlo.concatenate %c_15, %538, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %540 = stablehlo.dynamic_broadcast_in_dim %cst_0, %539, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %541 = stablehlo.add %540, %537 : tensor<2x?x64xf32>
    %542 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %543 = stablehlo.concatenate %c_15, %542, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %544 = stablehlo.dynamic_broadcast_in_dim %cst, %543, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %545 = stablehlo.multiply %544, %541 : tensor<2x?x64xf32>
    %546 = stablehlo.multiply %525, %545 : tensor<2x?x64xf32>
    %547 = stablehlo.dot_general %546, %arg17, contracting_dims = [2] x [0] : (tensor<2x?x64xf32>, tensor<64x32xf32>) -> tensor<2x?x32xf32>
    %548 = stablehlo.add %480, %547 : tensor<2x?x32xf32>
    %549 = stablehlo.reduce(%548 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %550 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %551 = stablehlo.concatenate %c_15, %550, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %552 = stablehlo.dynamic_broadcast_in_dim %549, %551, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %553 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %554 = stablehlo.concatenate %c_15, %553, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %555 = stablehlo.dynamic_broadcast_in_dim %cst_13, %554, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %556 = stablehlo.divide %552, %555 : tensor<2x?x1xf32>
    %557 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %558 = stablehlo.concatenate %c_15, %557, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %559 = stablehlo.dynamic_broadcast_in_dim %556, %558, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %560 = stablehlo.subtract %548, %559 : tensor<2x?x32xf32>
    %561 = stablehlo.multiply %560, %560 : tensor<2x?x32xf32>
    %562 = stablehlo.reduce(%561 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %563 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %564 = stablehlo.concatenate %c_15, %563, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %565 = stablehlo.dynamic_broadcast_in_dim %562, %564, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %566 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %567 = stablehlo.concatenate %c_15, %566, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %568 = stablehlo.dynamic_broadcast_in_dim %cst_13, %567, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %569 = stablehlo.divide %565, %568 : tensor<2x?x1xf32>
    %570 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %571 = stablehlo.concatenate %c_15, %570, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %572 = stablehlo.dynamic_broadcast_in_dim %556, %571, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %573 = stablehlo.subtract %548, %572 : tensor<2x?x32xf32>
    %574 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %575 = stablehlo.concatenate %c_15, %574, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %576 = stablehlo.dynamic_broadcast_in_dim %cst_11, %575, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %577 = stablehlo.add %569, %576 : tensor<2x?x1xf32>
    %578 = stablehlo.rsqrt %577 : tensor<2x?x1xf32>
    %579 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %580 = stablehlo.concatenate %c_15, %579, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %581 = stablehlo.dynamic_broadcast_in_dim %578, %580, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %582 = stablehlo.multiply %573, %581 : tensor<2x?x32xf32>
    %583 = stablehlo.broadcast_in_dim %arg27, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %584 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %585 = stablehlo.concatenate %c_15, %584, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %586 = stablehlo.dynamic_broadcast_in_dim %583, %585, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %587 = stablehlo.multiply %582, %586 : tensor<2x?x32xf32>
    %588 = stablehlo.broadcast_in_dim %arg26, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %589 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %590 = stablehlo.concatenate %c_15, %589, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %591 = stablehlo.dynamic_broadcast_in_dim %588, %590, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %592 = stablehlo.add %587, %591 : tensor<2x?x32xf32>
    %593 = stablehlo.dot_general %592, %arg31, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x96xf32>) -> tensor<2x?x96xf32>
    %594 = stablehlo.concatenate %c_10, %c_10, %c_10, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %595 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %596 = stablehlo.concatenate %c_15, %595, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %597 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %598 = stablehlo.real_dynamic_slice %593, %594, %596, %597 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %599 = stablehlo.concatenate %c_10, %c_10, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %600 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %601 = stablehlo.concatenate %c_15, %600, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %602 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %603 = stablehlo.real_dynamic_slice %593, %599, %601, %602 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %604 = stablehlo.concatenate %c_10, %c_10, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %605 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %606 = stablehlo.concatenate %c_15, %605, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %607 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %608 = stablehlo.real_dynamic_slice %593, %604, %606, %607 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %609 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %610 = stablehlo.concatenate %c_15, %609, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %611 = stablehlo.dynamic_reshape %598, %610 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %612 = stablehlo.transpose %611, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %613 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %614 = stablehlo.concatenate %c_15, %613, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %615 = stablehlo.dynamic_reshape %603, %614 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %616 = stablehlo.transpose %615, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %617 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %618 = stablehlo.concatenate %c_15, %617, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %619 = stablehlo.dynamic_reshape %608, %618 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %620 = stablehlo.transpose %619, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %621 = stablehlo.transpose %616, dims = [0, 1, 3, 2] : (tensor<2x4x?x8xf32>) -> tensor<2x4x8x?xf32>
    %622 = stablehlo.dot_general %612, %621, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x4x?x8xf32>, tensor<2x4x8x?xf32>) -> tensor<2x4x?x?xf32>
    %623 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %624 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %625 = stablehlo.concatenate %c_15, %c_7, %623, %624, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %626 = stablehlo.dynamic_broadcast_in_dim %cst_5, %625, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %627 = stablehlo.divide %622, %626 : tensor<2x4x?x?xf32>
    %628 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %629 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %630 = stablehlo.concatenate %628, %629, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %631 = stablehlo.dynamic_broadcast_in_dim %c, %630, dims = [] : (tensor<i1>, tensor<2xi32>) -> tensor<?x?xi1>
    %632 = call @tril(%arg0, %631) : (tensor<i32>, tensor<?x?xi1>) -> tensor<?x?xi1>
    %633 = call @_where(%arg0, %632, %627, %cst_4) : (tensor<i32>, tensor<?x?xi1>, tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?x?xf32>
    %634 = stablehlo.reduce(%633 init: %cst_3) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?xf32>
    %635 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %636 = stablehlo.concatenate %c_15, %c_7, %635, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %637 = stablehlo.dynamic_broadcast_in_dim %cst_3, %636, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x4x?xf32>
    %638 = stablehlo.maximum %637, %634 : tensor<2x4x?xf32>
    %639 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %640 = stablehlo.concatenate %c_15, %c_7, %639, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %641 = stablehlo.dynamic_broadcast_in_dim %638, %640, dims = [0, 1, 2] : (tensor<2x4x?xf32>, tensor<4xi32>) -> tensor<2x4x?x1xf32>
    %642 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %643 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %644 = stablehlo.concatenate %c_15, %c_7, %642, %643, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %645 = stablehlo.dynamic_broadcast_in_dim %641, %644, dims = [0, 1, 2, 3] : (tensor<2x4x?x1xf32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %646 = stablehlo.subtract %633, %645 : tensor<2x4x?x?xf32>
    %647 = stablehlo.exponential %646 : tensor<2x4x?x?xf32>
    %648 = stablehlo.reduce(%647 init: %cst_16) applies stablehlo.add across dimensions = [3] : (tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?xf32>
    %649 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %650 = stablehlo.concatenate %c_15, %c_7, %649, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %651 = stablehlo.dynamic_broadcast_in_dim %648, %650, dims = [0, 1, 2] : (tensor<2x4x?xf32>, tensor<4xi32>) -> tensor<2x4x?x1xf32>
    %652 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %653 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %654 = stablehlo.concatenate %c_15, %c_7, %652, %653, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %655 = stablehlo.dynamic_broadcast_in_dim %651, %654, dims = [0, 1, 2, 3] : (tensor<2x4x?x1xf32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %656 = stablehlo.divide %647, %655 : tensor<2x4x?x?xf32>
    %657 = stablehlo.dot_general %656, %620, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x4x?x?xf32>, tensor<2x4x?x8xf32>) -> tensor<2x4x?x8xf32>
    %658 = stablehlo.transpose %657, dims = [0, 2, 1, 3] : (tensor<2x4x?x8xf32>) -> tensor<2x?x4x8xf32>
    %659 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %660 = stablehlo.concatenate %c_15, %659, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %661 = stablehlo.dynamic_reshape %658, %660 : (tensor<2x?x4x8xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %662 = stablehlo.dot_general %661, %arg30, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x32xf32>) -> tensor<2x?x32xf32>
    %663 = stablehlo.add %548, %662 : tensor<2x?x32xf32>
    %664 = stablehlo.reduce(%663 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %665 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %666 = stablehlo.concatenate %c_15, %665, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %667 = stablehlo.dynamic_broadcast_in_dim %664, %666, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %668 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %669 = stablehlo.concatenate %c_15, %668, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %670 = stablehlo.dynamic_broadcast_in_dim %cst_13, %669, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %671 = stablehlo.divide %667, %670 : tensor<2x?x1xf32>
    %672 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %673 = stablehlo.concatenate %c_15, %672, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %674 = stablehlo.dynamic_broadcast_in_dim %671, %673, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %675 = stablehlo.subtract %663, %674 : tensor<2x?x32xf32>
    %676 = stablehlo.multiply %675, %675 : tensor<2x?x32xf32>
    %677 = stablehlo.reduce(%676 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %678 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %679 = stablehlo.concatenate %c_15, %678, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %680 = stablehlo.dynamic_broadcast_in_dim %677, %679, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %681 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %682 = stablehlo.concatenate %c_15, %681, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %683 = stablehlo.dynamic_broadcast_in_dim %cst_13, %682, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %684 = stablehlo.divide %680, %683 : tensor<2x?x1xf32>
    %685 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %686 = stablehlo.concatenate %c_15, %685, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %687 = stablehlo.dynamic_broadcast_in_dim %671, %686, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %688 = stablehlo.subtract %663, %687 : tensor<2x?x32xf32>
    %689 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %690 = stablehlo.concatenate %c_15, %689, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %691 = stablehlo.dynamic_broadcast_in_dim %cst_11, %690, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %692 = stablehlo.add %684, %691 : tensor<2x?x1xf32>
    %693 = stablehlo.rsqrt %692 : tensor<2x?x1xf32>
    %694 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %695 = stablehlo.concatenate %c_15, %694, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %696 = stablehlo.dynamic_broadcast_in_dim %693, %695, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %697 = stablehlo.multiply %688, %696 : tensor<2x?x32xf32>
    %698 = stablehlo.broadcast_in_dim %arg29, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %699 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %700 = stablehlo.concatenate %c_15, %699, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %701 = stablehlo.dynamic_broadcast_in_dim %698, %700, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %702 = stablehlo.multiply %697, %701 : tensor<2x?x32xf32>
    %703 = stablehlo.broadcast_in_dim %arg28, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %704 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %705 = stablehlo.concatenate %c_15, %704, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %706 = stablehlo.dynamic_broadcast_in_dim %703, %705, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %707 = stablehlo.add %702, %706 : tensor<2x?x32xf32>
    %708 = stablehlo.dot_general %707, %arg32, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x64xf32>) -> tensor<2x?x64xf32>
    %709 = stablehlo.multiply %708, %708 : tensor<2x?x64xf32>
    %710 = stablehlo.multiply %709, %708 : tensor<2x?x64xf32>
    %711 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %712 = stablehlo.concatenate %c_15, %711, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %713 = stablehlo.dynamic_broadcast_in_dim %cst_2, %712, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %714 = stablehlo.multiply %713, %710 : tensor<2x?x64xf32>
    %715 = stablehlo.add %708, %714 : tensor<2x?x64xf32>
    %716 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %717 = stablehlo.concatenate %c_15, %716, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %718 = stablehlo.dynamic_broadcast_in_dim %cst_1, %717, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %719 = stablehlo.multiply %718, %715 : tensor<2x?x64xf32>
    %720 = stablehlo.tanh %719 : tensor<2x?x64xf32>
    %721 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %722 = stablehlo.concatenate %c_15, %721, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %723 = stablehlo.dynamic_broadcast_in_dim %cst_0, %722, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %724 = stablehlo.add %723, %720 : tensor<2x?x64xf32>
    %725 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %726 = stablehlo.concatenate %c_15, %725, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %727 = stablehlo.dynamic_broadcast_in_dim %cst, %726, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %728 = stablehlo.multiply %727, %724 : tensor<2x?x64xf32>
    %729 = stablehlo.multiply %708, %728 : tensor<2x?x64xf32>
    %730 = stablehlo.dot_general %729, %arg25, contracting_dims = [2] x [0] : (tensor<2x?x64xf32>, tensor<64x32xf32>) -> tensor<2x?x32xf32>
    %731 = stablehlo.add %663, %730 : tensor<2x?x32xf32>
    %732 = stablehlo.reduce(%731 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %733 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %734 = stablehlo.concatenate %c_15, %733, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %735 = stablehlo.dynamic_broadcast_in_dim %732, %734, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %736 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %737 = stablehlo.concatenate %c_15, %736, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %738 = stablehlo.dynamic_broadcast_in_dim %cst_13, %737, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %739 = stablehlo.divide %735, %738 : tensor<2x?x1xf32>
    %740 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %741 = stablehlo.concatenate %c_15, %740, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %742 = stablehlo.dynamic_broadcast_in_dim %739, %741, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %743 = stablehlo.subtract %731, %742 : tensor<2x?x32xf32>
    %744 = stablehlo.multiply %743, %743 : tensor<2x?x32xf32>
    %745 = stablehlo.reduce(%744 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %746 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %747 = stablehlo.concatenate %c_15, %746, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %748 = stablehlo.dynamic_broadcast_in_dim %745, %747, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %749 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %750 = stablehlo.concatenate %c_15, %749, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %751 = stablehlo.dynamic_broadcast_in_dim %cst_13, %750, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %752 = stablehlo.divide %748, %751 : tensor<2x?x1xf32>
    %753 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %754 = stablehlo.concatenate %c_15, %753, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %755 = stablehlo.dynamic_broadcast_in_dim %739, %754, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %756 = stablehlo.subtract %731, %755 : tensor<2x?x32xf32>
    %757 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %758 = stablehlo.concatenate %c_15, %757, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %759 = stablehlo.dynamic_broadcast_in_dim %cst_11, %758, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %760 = stablehlo.add %752, %759 : tensor<2x?x1xf32>
    %761 = stablehlo.rsqrt %760 : tensor<2x?x1xf32>
    %762 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %763 = stablehlo.concatenate %c_15, %762, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %764 = stablehlo.dynamic_broadcast_in_dim %761, %763, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %765 = stablehlo.multiply %756, %764 : tensor<2x?x32xf32>
    %766 = stablehlo.broadcast_in_dim %arg35, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %767 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %768 = stablehlo.concatenate %c_15, %767, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %769 = stablehlo.dynamic_broadcast_in_dim %766, %768, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %770 = stablehlo.multiply %765, %769 : tensor<2x?x32xf32>
    %771 = stablehlo.broadcast_in_dim %arg34, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %772 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %773 = stablehlo.concatenate %c_15, %772, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %774 = stablehlo.dynamic_broadcast_in_dim %771, %773, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %775 = stablehlo.add %770, %774 : tensor<2x?x32xf32>
    %776 = stablehlo.dot_general %775, %arg39, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x96xf32>) -> tensor<2x?x96xf32>
    %777 = stablehlo.concatenate %c_10, %c_10, %c_10, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %778 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %779 = stablehlo.concatenate %c_15, %778, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %780 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %781 = stablehlo.real_dynamic_slice %776, %777, %779, %780 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %782 = stablehlo.concatenate %c_10, %c_10, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %783 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %784 = stablehlo.concatenate %c_15, %783, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %785 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %786 = stablehlo.real_dynamic_slice %776, %782, %784, %785 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %787 = stablehlo.concatenate %c_10, %c_10, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %788 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %789 = stablehlo.concatenate %c_15, %788, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %790 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %791 = stablehlo.real_dynamic_slice %776, %787, %789, %790 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %792 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %793 = stablehlo.concatenate %c_15, %792, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %794 = stablehlo.dynamic_reshape %781, %793 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %795 = stablehlo.transpose %794, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %796 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %797 = stablehlo.concatenate %c_15, %796, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %798 = stablehlo.dynamic_reshape %786, %797 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %799 = stablehlo.transpose %798, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %800 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %801 = stablehlo.concatenate %c_15, %800, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %802 = stablehlo.dynamic_reshape %791, %801 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %803 = stablehlo.transpose %802, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %804 = stablehlo.transpose %799, dims = [0, 1, 3, 2] : (tensor<2x4x?x8xf32>) -> tensor<2x4x8x?xf32>
    %805 = stablehlo.dot_general %795, %804, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x4x?x8xf32>, tensor<2x4x8x?xf32>) -> tensor<2x4x?x?xf32>
    %806 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %807 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %808 = stablehlo.concatenate %c_15, %c_7, %806, %807, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %809 = stablehlo.dynamic_broadcast_in_dim %cst_5, %808, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %810 = stablehlo.divide %805, %809 : tensor<2x4x?x?xf32>
    %811 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %812 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %813 = stablehlo.concatenate %811, %812, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %814 = stablehlo.dynamic_broadcast_in_dim %c, %813, dims = [] : (tensor<i1>, tensor<2xi32>) -> tensor<?x?xi1>
    %815 = call @tril(%arg0, %814) : (tensor<i32>, tensor<?x?xi1>) -> tensor<?x?xi1>
    %816 = call @_where(%arg0, %815, %810, %cst_4) : (tensor<i32>, tensor<?x?xi1>, tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?x?xf32>
    %817 = stablehlo.reduce(%816 init: %cst_3) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?xf32>
    %818 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %819 = stablehlo.concatenate %c_15, %c_7, %818, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %820 = stablehlo.dynamic_broadcast_in_dim %cst_3, %819, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x4x?xf32>
    %821 = stablehlo.maximum %820, %817 : tensor<2x4x?xf32>
    %822 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %823 = stablehlo.concatenate %c_15, %c_7, %822, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %824 = stablehlo.dynamic_broadcast_in_dim %821, %823, dims = [0, 1, 2] : (tensor<2x4x?xf32>, tensor<4xi32>) -> tensor<2x4x?x1xf32>
    %825 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %826 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %827 = stablehlo.concatenate %c_15, %c_7, %825, %826, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %828 = stablehlo.dynamic_broadcast_in_dim %824, %827, dims = [0, 1, 2, 3] : (tensor<2x4x?x1xf32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %829 = stablehlo.subtract %816, %828 : tensor<2x4x?x?xf32>
    %830 = stablehlo.exponential %829 : tensor<2x4x?x?xf32>
    %831 = stablehlo.reduce(%830 init: %cst_16) applies stablehlo.add across dimensions = [3] : (tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?xf32>
    %832 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %833 = stablehlo.concatenate %c_15, %c_7, %832, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %834 = stablehlo.dynamic_broadcast_in_dim %831, %833, dims = [0, 1, 2] : (tensor<2x4x?xf32>, tensor<4xi32>) -> tensor<2x4x?x1xf32>
    %835 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %836 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %837 = stablehlo.concatenate %c_15, %c_7, %835, %836, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %838 = stablehlo.dynamic_broadcast_in_dim %834, %837, dims = [0, 1, 2, 3] : (tensor<2x4x?x1xf32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %839 = stablehlo.divide %830, %838 : tensor<2x4x?x?xf32>
    %840 = stablehlo.dot_general %839, %803, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x4x?x?xf32>, tensor<2x4x?x8xf32>) -> tensor<2x4x?x8xf32>
    %841 = stablehlo.transpose %840, dims = [0, 2, 1, 3] : (tensor<2x4x?x8xf32>) -> tensor<2x?x4x8xf32>
    %842 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %843 = stablehlo.concatenate %c_15, %842, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %844 = stablehlo.dynamic_reshape %841, %843 : (tensor<2x?x4x8xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %845 = stablehlo.dot_general %844, %arg38, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x32xf32>) -> tensor<2x?x32xf32>
    %846 = stablehlo.add %731, %845 : tensor<2x?x32xf32>
    %847 = stablehlo.reduce(%846 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %848 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %849 = stablehlo.concatenate %c_15, %848, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %850 = stablehlo.dynamic_broadcast_in_dim %847, %849, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %851 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %852 = stablehlo.concatenate %c_15, %851, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %853 = stablehlo.dynamic_broadcast_in_dim %cst_13, %852, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %854 = stablehlo.divide %850, %853 : tensor<2x?x1xf32>
    %855 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %856 = stablehlo.concatenate %c_15, %855, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %857 = stablehlo.dynamic_broadcast_in_dim %854, %856, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %858 = stablehlo.subtract %846, %857 : tensor<2x?x32xf32>
    %859 = stablehlo.multiply %858, %858 : tensor<2x?x32xf32>
    %860 = stablehlo.reduce(%859 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %861 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %862 = stablehlo.concatenate %c_15, %861, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %863 = stablehlo.dynamic_broadcast_in_dim %860, %862, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %864 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %865 = stablehlo.concatenate %c_15, %864, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %866 = stablehlo.dynamic_broadcast_in_dim %cst_13, %865, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %867 = stablehlo.divide %863, %866 : tensor<2x?x1xf32>
    %868 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %869 = stablehlo.concatenate %c_15, %868, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %870 = stablehlo.dynamic_broadcast_in_dim %854, %869, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %871 = stablehlo.subtract %846, %870 : tensor<2x?x32xf32>
    %872 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %873 = stablehlo.concatenate %c_15, %872, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %874 = stablehlo.dynamic_broadcast_in_dim %cst_11, %873, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %875 = stablehlo.add %867, %874 : tensor<2x?x1xf32>
    %876 = stablehlo.rsqrt %875 : tensor<2x?x1xf32>
    %877 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %878 = stablehlo.concatenate %c_15, %877, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %879 = stablehlo.dynamic_broadcast_in_dim %876, %878, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %880 = stablehlo.multiply %871, %879 : tensor<2x?x32xf32>
    %881 = stablehlo.broadcast_in_dim %arg37, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %882 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %883 = stablehlo.concatenate %c_15, %882, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %884 = stablehlo.dynamic_broadcast_in_dim %881, %883, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %885 = stablehlo.multiply %880, %884 : tensor<2x?x32xf32>
    %886 = stablehlo.broadcast_in_dim %arg36, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %887 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %888 = stablehlo.concatenate %c_15, %887, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %889 = stablehlo.dynamic_broadcast_in_dim %886, %888, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %890 = stablehlo.add %885, %889 : tensor<2x?x32xf32>
    %891 = stablehlo.dot_general %890, %arg40, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x64xf32>) -> tensor<2x?x64xf32>
    %892 = stablehlo.multiply %891, %891 : tensor<2x?x64xf32>
    %893 = stablehlo.multiply %892, %891 : tensor<2x?x64xf32>
    %894 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %895 = stablehlo.concatenate %c_15, %894, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %896 = stablehlo.dynamic_broadcast_in_dim %cst_2, %895, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %897 = stablehlo.multiply %896, %893 : tensor<2x?x64xf32>
    %898 = stablehlo.add %891, %897 : tensor<2x?x64xf32>
    %899 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %900 = stablehlo.concatenate %c_15, %899, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %901 = stablehlo.dynamic_broadcast_in_dim %cst_1, %900, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %902 = stablehlo.multiply %901, %898 : tensor<2x?x64xf32>
    %903 = stablehlo.tanh %902 : tensor<2x?x64xf32>
    %904 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %905 = stablehlo.concatenate %c_15, %904, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %906 = stablehlo.dynamic_broadcast_in_dim %cst_0, %905, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %907 = stablehlo.add %906, %903 : tensor<2x?x64xf32>
    %908 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %909 = stablehlo.concatenate %c_15, %908, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %910 = stablehlo.dynamic_broadcast_in_dim %cst, %909, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %911 = stablehlo.multiply %910, %907 : tensor<2x?x64xf32>
    %912 = stablehlo.multiply %891, %911 : tensor<2x?x64xf32>
    %913 = stablehlo.dot_general %912, %arg33, contracting_dims = [2] x [0] : (tensor<2x?x64xf32>, tensor<64x32xf32>) -> tensor<2x?x32xf32>
    %914 = stablehlo.add %846, %913 : tensor<2x?x32xf32>
    %915 = stablehlo.reduce(%914 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %916 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %917 = stablehlo.concatenate %c_15, %916, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %918 = stablehlo.dynamic_broadcast_in_dim %915, %917, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %919 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %920 = stablehlo.concatenate %c_15, %919, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %921 = stablehlo.dynamic_broadcast_in_dim %cst_13, %920, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %922 = stablehlo.divide %918, %921 : tensor<2x?x1xf32>
    %923 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %924 = stablehlo.concatenate %c_15, %923, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %925 = stablehlo.dynamic_broadcast_in_dim %922, %924, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %926 = stablehlo.subtract %914, %925 : tensor<2x?x32xf32>
    %927 = stablehlo.multiply %926, %926 : tensor<2x?x32xf32>
    %928 = stablehlo.reduce(%927 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %929 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %930 = stablehlo.concatenate %c_15, %929, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %931 = stablehlo.dynamic_broadcast_in_dim %928, %930, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %932 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %933 = stablehlo.concatenate %c_15, %932, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %934 = stablehlo.dynamic_broadcast_in_dim %cst_13, %933, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %935 = stablehlo.divide %931, %934 : tensor<2x?x1xf32>
    %936 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %937 = stablehlo.concatenate %c_15, %936, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %938 = stablehlo.dynamic_broadcast_in_dim %922, %937, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %939 = stablehlo.subtract %914, %938 : tensor<2x?x32xf32>
    %940 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %941 = stablehlo.concatenate %c_15, %940, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %942 = stablehlo.dynamic_broadcast_in_dim %cst_11, %941, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %943 = stablehlo.add %935, %942 : tensor<2x?x1xf32>
    %944 = stablehlo.rsqrt %943 : tensor<2x?x1xf32>
    %945 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %946 = stablehlo.concatenate %c_15, %945, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %947 = stablehlo.dynamic_broadcast_in_dim %944, %946, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %948 = stablehlo.multiply %939, %947 : tensor<2x?x32xf32>
    %949 = stablehlo.broadcast_in_dim %arg43, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %950 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %951 = stablehlo.concatenate %c_15, %950, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %952 = stablehlo.dynamic_broadcast_in_dim %949, %951, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %953 = stablehlo.multiply %948, %952 : tensor<2x?x32xf32>
    %954 = stablehlo.broadcast_in_dim %arg42, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %955 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %956 = stablehlo.concatenate %c_15, %955, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %957 = stablehlo.dynamic_broadcast_in_dim %954, %956, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %958 = stablehlo.add %953, %957 : tensor<2x?x32xf32>
    %959 = stablehlo.dot_general %958, %arg47, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x96xf32>) -> tensor<2x?x96xf32>
    %960 = stablehlo.concatenate %c_10, %c_10, %c_10, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %961 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %962 = stablehlo.concatenate %c_15, %961, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %963 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %964 = stablehlo.real_dynamic_slice %959, %960, %962, %963 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %965 = stablehlo.concatenate %c_10, %c_10, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %966 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %967 = stablehlo.concatenate %c_15, %966, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %968 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %969 = stablehlo.real_dynamic_slice %959, %965, %967, %968 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %970 = stablehlo.concatenate %c_10, %c_10, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %971 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %972 = stablehlo.concatenate %c_15, %971, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %973 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %974 = stablehlo.real_dynamic_slice %959, %970, %972, %973 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %975 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %976 = stablehlo.concatenate %c_15, %975, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %977 = stablehlo.dynamic_reshape %964, %976 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %978 = stablehlo.transpose %977, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %979 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %980 = stablehlo.concatenate %c_15, %979, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %981 = stablehlo.dynamic_reshape %969, %980 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %982 = stablehlo.transpose %981, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %983 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %984 = stablehlo.concatenate %c_15, %983, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %985 = stablehlo.dynamic_reshape %974, %984 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %986 = stablehlo.transpose %985, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %987 = stablehlo.transpose %982, dims = [0, 1, 3, 2] : (tensor<2x4x?x8xf32>) -> tensor<2x4x8x?xf32>
    %988 = stablehlo.dot_general %978, %987, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x4x?x8xf32>, tensor<2x4x8x?xf32>) -> tensor<2x4x?x?xf32>
    %989 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %990 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %991 = stablehlo.concatenate %c_15, %c_7, %989, %990, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %992 = stablehlo.dynamic_broadcast_in_dim %cst_5, %991, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %993 = stablehlo.divide %988, %992 : tensor<2x4x?x?xf32>
    %994 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %995 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %996 = stablehlo.concatenate %994, %995, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %997 = stablehlo.dynamic_broadcast_in_dim %c, %996, dims = [] : (tensor<i1>, tensor<2xi32>) -> tensor<?x?xi1>
    %998 = call @tril(%arg0, %997) : (tensor<i32>, tensor<?x?xi1>) -> tensor<?x?xi1>
    %999 = call @_where(%arg0, %998, %993, %cst_4) : (tensor<i32>, tensor<?x?xi1>, tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?x?xf32>
    %1000 = stablehlo.reduce(%999 init: %cst_3) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?xf32>
    %1001 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1002 = stablehlo.concatenate %c_15, %c_7, %1001, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1003 = stablehlo.dynamic_broadcast_in_dim %cst_3, %1002, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x4x?xf32>
    %1004 = stablehlo.maximum %1003, %1000 : tensor<2x4x?xf32>
    %1005 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1006 = stablehlo.concatenate %c_15, %c_7, %1005, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1007 = stablehlo.dynamic_broadcast_in_dim %1004, %1006, dims = [0, 1, 2] : (tensor<2x4x?xf32>, tensor<4xi32>) -> tensor<2x4x?x1xf32>
    %1008 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1009 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1010 = stablehlo.concatenate %c_15, %c_7, %1008, %1009, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1011 = stablehlo.dynamic_broadcast_in_dim %1007, %1010, dims = [0, 1, 2, 3] : (tensor<2x4x?x1xf32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %1012 = stablehlo.subtract %999, %1011 : tensor<2x4x?x?xf32>
    %1013 = stablehlo.exponential %1012 : tensor<2x4x?x?xf32>
    %1014 = stablehlo.reduce(%1013 init: %cst_16) applies stablehlo.add across dimensions = [3] : (tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?xf32>
    %1015 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1016 = stablehlo.concatenate %c_15, %c_7, %1015, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1017 = stablehlo.dynamic_broadcast_in_dim %1014, %1016, dims = [0, 1, 2] : (tensor<2x4x?xf32>, tensor<4xi32>) -> tensor<2x4x?x1xf32>
    %1018 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1019 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1020 = stablehlo.concatenate %c_15, %c_7, %1018, %1019, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1021 = stablehlo.dynamic_broadcast_in_dim %1017, %1020, dims = [0, 1, 2, 3] : (tensor<2x4x?x1xf32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %1022 = stablehlo.divide %1013, %1021 : tensor<2x4x?x?xf32>
    %1023 = stablehlo.dot_general %1022, %986, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x4x?x?xf32>, tensor<2x4x?x8xf32>) -> tensor<2x4x?x8xf32>
    %1024 = stablehlo.transpose %1023, dims = [0, 2, 1, 3] : (tensor<2x4x?x8xf32>) -> tensor<2x?x4x8xf32>
    %1025 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1026 = stablehlo.concatenate %c_15, %1025, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1027 = stablehlo.dynamic_reshape %1024, %1026 : (tensor<2x?x4x8xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1028 = stablehlo.dot_general %1027, %arg46, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x32xf32>) -> tensor<2x?x32xf32>
    %1029 = stablehlo.add %914, %1028 : tensor<2x?x32xf32>
    %1030 = stablehlo.reduce(%1029 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %1031 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1032 = stablehlo.concatenate %c_15, %1031, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1033 = stablehlo.dynamic_broadcast_in_dim %1030, %1032, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1034 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1035 = stablehlo.concatenate %c_15, %1034, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1036 = stablehlo.dynamic_broadcast_in_dim %cst_13, %1035, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1037 = stablehlo.divide %1033, %1036 : tensor<2x?x1xf32>
    %1038 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1039 = stablehlo.concatenate %c_15, %1038, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1040 = stablehlo.dynamic_broadcast_in_dim %1037, %1039, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1041 = stablehlo.subtract %1029, %1040 : tensor<2x?x32xf32>
    %1042 = stablehlo.multiply %1041, %1041 : tensor<2x?x32xf32>
    %1043 = stablehlo.reduce(%1042 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %1044 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1045 = stablehlo.concatenate %c_15, %1044, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1046 = stablehlo.dynamic_broadcast_in_dim %1043, %1045, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1047 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1048 = stablehlo.concatenate %c_15, %1047, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1049 = stablehlo.dynamic_broadcast_in_dim %cst_13, %1048, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1050 = stablehlo.divide %1046, %1049 : tensor<2x?x1xf32>
    %1051 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1052 = stablehlo.concatenate %c_15, %1051, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1053 = stablehlo.dynamic_broadcast_in_dim %1037, %1052, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1054 = stablehlo.subtract %1029, %1053 : tensor<2x?x32xf32>
    %1055 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1056 = stablehlo.concatenate %c_15, %1055, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1057 = stablehlo.dynamic_broadcast_in_dim %cst_11, %1056, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1058 = stablehlo.add %1050, %1057 : tensor<2x?x1xf32>
    %1059 = stablehlo.rsqrt %1058 : tensor<2x?x1xf32>
    %1060 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1061 = stablehlo.concatenate %c_15, %1060, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1062 = stablehlo.dynamic_broadcast_in_dim %1059, %1061, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1063 = stablehlo.multiply %1054, %1062 : tensor<2x?x32xf32>
    %1064 = stablehlo.broadcast_in_dim %arg45, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %1065 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1066 = stablehlo.concatenate %c_15, %1065, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1067 = stablehlo.dynamic_broadcast_in_dim %1064, %1066, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1068 = stablehlo.multiply %1063, %1067 : tensor<2x?x32xf32>
    %1069 = stablehlo.broadcast_in_dim %arg44, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %1070 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1071 = stablehlo.concatenate %c_15, %1070, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1072 = stablehlo.dynamic_broadcast_in_dim %1069, %1071, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1073 = stablehlo.add %1068, %1072 : tensor<2x?x32xf32>
    %1074 = stablehlo.dot_general %1073, %arg48, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x64xf32>) -> tensor<2x?x64xf32>
    %1075 = stablehlo.multiply %1074, %1074 : tensor<2x?x64xf32>
    %1076 = stablehlo.multiply %1075, %1074 : tensor<2x?x64xf32>
    %1077 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1078 = stablehlo.concatenate %c_15, %1077, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1079 = stablehlo.dynamic_broadcast_in_dim %cst_2, %1078, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %1080 = stablehlo.multiply %1079, %1076 : tensor<2x?x64xf32>
    %1081 = stablehlo.add %1074, %1080 : tensor<2x?x64xf32>
    %1082 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1083 = stablehlo.concatenate %c_15, %1082, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1084 = stablehlo.dynamic_broadcast_in_dim %cst_1, %1083, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %1085 = stablehlo.multiply %1084, %1081 : tensor<2x?x64xf32>
    %1086 = stablehlo.tanh %1085 : tensor<2x?x64xf32>
    %1087 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1088 = stablehlo.concatenate %c_15, %1087, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1089 = stablehlo.dynamic_broadcast_in_dim %cst_0, %1088, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %1090 = stablehlo.add %1089, %1086 : tensor<2x?x64xf32>
    %1091 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1092 = stablehlo.concatenate %c_15, %1091, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1093 = stablehlo.dynamic_broadcast_in_dim %cst, %1092, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %1094 = stablehlo.multiply %1093, %1090 : tensor<2x?x64xf32>
    %1095 = stablehlo.multiply %1074, %1094 : tensor<2x?x64xf32>
    %1096 = stablehlo.dot_general %1095, %arg41, contracting_dims = [2] x [0] : (tensor<2x?x64xf32>, tensor<64x32xf32>) -> tensor<2x?x32xf32>
    %1097 = stablehlo.add %1029, %1096 : tensor<2x?x32xf32>
    %1098 = stablehlo.reduce(%1097 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %1099 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1100 = stablehlo.concatenate %c_15, %1099, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1101 = stablehlo.dynamic_broadcast_in_dim %1098, %1100, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1102 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1103 = stablehlo.concatenate %c_15, %1102, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1104 = stablehlo.dynamic_broadcast_in_dim %cst_13, %1103, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1105 = stablehlo.divide %1101, %1104 : tensor<2x?x1xf32>
    %1106 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1107 = stablehlo.concatenate %c_15, %1106, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1108 = stablehlo.dynamic_broadcast_in_dim %1105, %1107, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1109 = stablehlo.subtract %1097, %1108 : tensor<2x?x32xf32>
    %1110 = stablehlo.multiply %1109, %1109 : tensor<2x?x32xf32>
    %1111 = stablehlo.reduce(%1110 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %1112 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1113 = stablehlo.concatenate %c_15, %1112, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1114 = stablehlo.dynamic_broadcast_in_dim %1111, %1113, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1115 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1116 = stablehlo.concatenate %c_15, %1115, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1117 = stablehlo.dynamic_broadcast_in_dim %cst_13, %1116, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1118 = stablehlo.divide %1114, %1117 : tensor<2x?x1xf32>
    %1119 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1120 = stablehlo.concatenate %c_15, %1119, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1121 = stablehlo.dynamic_broadcast_in_dim %1105, %1120, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1122 = stablehlo.subtract %1097, %1121 : tensor<2x?x32xf32>
    %1123 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1124 = stablehlo.concatenate %c_15, %1123, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1125 = stablehlo.dynamic_broadcast_in_dim %cst_11, %1124, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1126 = stablehlo.add %1118, %1125 : tensor<2x?x1xf32>
    %1127 = stablehlo.rsqrt %1126 : tensor<2x?x1xf32>
    %1128 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1129 = stablehlo.concatenate %c_15, %1128, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1130 = stablehlo.dynamic_broadcast_in_dim %1127, %1129, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1131 = stablehlo.multiply %1122, %1130 : tensor<2x?x32xf32>
    %1132 = stablehlo.broadcast_in_dim %arg51, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %1133 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1134 = stablehlo.concatenate %c_15, %1133, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1135 = stablehlo.dynamic_broadcast_in_dim %1132, %1134, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1136 = stablehlo.multiply %1131, %1135 : tensor<2x?x32xf32>
    %1137 = stablehlo.broadcast_in_dim %arg50, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %1138 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1139 = stablehlo.concatenate %c_15, %1138, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1140 = stablehlo.dynamic_broadcast_in_dim %1137, %1139, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1141 = stablehlo.add %1136, %1140 : tensor<2x?x32xf32>
    %1142 = stablehlo.dot_general %1141, %arg55, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x96xf32>) -> tensor<2x?x96xf32>
    %1143 = stablehlo.concatenate %c_10, %c_10, %c_10, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1144 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1145 = stablehlo.concatenate %c_15, %1144, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1146 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1147 = stablehlo.real_dynamic_slice %1142, %1143, %1145, %1146 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1148 = stablehlo.concatenate %c_10, %c_10, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1149 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1150 = stablehlo.concatenate %c_15, %1149, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1151 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1152 = stablehlo.real_dynamic_slice %1142, %1148, %1150, %1151 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1153 = stablehlo.concatenate %c_10, %c_10, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1154 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1155 = stablehlo.concatenate %c_15, %1154, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1156 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1157 = stablehlo.real_dynamic_slice %1142, %1153, %1155, %1156 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1158 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1159 = stablehlo.concatenate %c_15, %1158, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1160 = stablehlo.dynamic_reshape %1147, %1159 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %1161 = stablehlo.transpose %1160, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %1162 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1163 = stablehlo.concatenate %c_15, %1162, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1164 = stablehlo.dynamic_reshape %1152, %1163 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %1165 = stablehlo.transpose %1164, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %1166 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1167 = stablehlo.concatenate %c_15, %1166, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1168 = stablehlo.dynamic_reshape %1157, %1167 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %1169 = stablehlo.transpose %1168, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %1170 = stablehlo.transpose %1165, dims = [0, 1, 3, 2] : (tensor<2x4x?x8xf32>) -> tensor<2x4x8x?xf32>
    %1171 = stablehlo.dot_general %1161, %1170, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x4x?x8xf32>, tensor<2x4x8x?xf32>) -> tensor<2x4x?x?xf32>
    %1172 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1173 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1174 = stablehlo.concatenate %c_15, %c_7, %1172, %1173, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1175 = stablehlo.dynamic_broadcast_in_dim %cst_5, %1174, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %1176 = stablehlo.divide %1171, %1175 : tensor<2x4x?x?xf32>
    %1177 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1178 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1179 = stablehlo.concatenate %1177, %1178, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %1180 = stablehlo.dynamic_broadcast_in_dim %c, %1179, dims = [] : (tensor<i1>, tensor<2xi32>) -> tensor<?x?xi1>
    %1181 = call @tril(%arg0, %1180) : (tensor<i32>, tensor<?x?xi1>) -> tensor<?x?xi1>
    %1182 = call @_where(%arg0, %1181, %1176, %cst_4) : (tensor<i32>, tensor<?x?xi1>, tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?x?xf32>
    %1183 = stablehlo.reduce(%1182 init: %cst_3) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?xf32>
    %1184 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1185 = stablehlo.concatenate %c_15, %c_7, %1184, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1186 = stablehlo.dynamic_broadcast_in_dim %cst_3, %1185, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x4x?xf32>
    %1187 = stablehlo.maximum %1186, %1183 : tensor<2x4x?xf32>
    %1188 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1189 = stablehlo.concatenate %c_15, %c_7, %1188, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1190 = stablehlo.dynamic_broadcast_in_dim %1187, %1189, dims = [0, 1, 2] : (tensor<2x4x?xf32>, tensor<4xi32>) -> tensor<2x4x?x1xf32>
    %1191 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1192 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1193 = stablehlo.concatenate %c_15, %c_7, %1191, %1192, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1194 = stablehlo.dynamic_broadcast_in_dim %1190, %1193, dims = [0, 1, 2, 3] : (tensor<2x4x?x1xf32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %1195 = stablehlo.subtract %1182, %1194 : tensor<2x4x?x?xf32>
    %1196 = stablehlo.exponential %1195 : tensor<2x4x?x?xf32>
    %1197 = stablehlo.reduce(%1196 init: %cst_16) applies stablehlo.add across dimensions = [3] : (tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?xf32>
    %1198 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1199 = stablehlo.concatenate %c_15, %c_7, %1198, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1200 = stablehlo.dynamic_broadcast_in_dim %1197, %1199, dims = [0, 1, 2] : (tensor<2x4x?xf32>, tensor<4xi32>) -> tensor<2x4x?x1xf32>
    %1201 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1202 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1203 = stablehlo.concatenate %c_15, %c_7, %1201, %1202, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1204 = stablehlo.dynamic_broadcast_in_dim %1200, %1203, dims = [0, 1, 2, 3] : (tensor<2x4x?x1xf32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %1205 = stablehlo.divide %1196, %1204 : tensor<2x4x?x?xf32>
    %1206 = stablehlo.dot_general %1205, %1169, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x4x?x?xf32>, tensor<2x4x?x8xf32>) -> tensor<2x4x?x8xf32>
    %1207 = stablehlo.transpose %1206, dims = [0, 2, 1, 3] : (tensor<2x4x?x8xf32>) -> tensor<2x?x4x8xf32>
    %1208 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1209 = stablehlo.concatenate %c_15, %1208, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1210 = stablehlo.dynamic_reshape %1207, %1209 : (tensor<2x?x4x8xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1211 = stablehlo.dot_general %1210, %arg54, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x32xf32>) -> tensor<2x?x32xf32>
    %1212 = stablehlo.add %1097, %1211 : tensor<2x?x32xf32>
    %1213 = stablehlo.reduce(%1212 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %1214 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1215 = stablehlo.concatenate %c_15, %1214, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1216 = stablehlo.dynamic_broadcast_in_dim %1213, %1215, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1217 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1218 = stablehlo.concatenate %c_15, %1217, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1219 = stablehlo.dynamic_broadcast_in_dim %cst_13, %1218, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1220 = stablehlo.divide %1216, %1219 : tensor<2x?x1xf32>
    %1221 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1222 = stablehlo.concatenate %c_15, %1221, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1223 = stablehlo.dynamic_broadcast_in_dim %1220, %1222, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1224 = stablehlo.subtract %1212, %1223 : tensor<2x?x32xf32>
    %1225 = stablehlo.multiply %1224, %1224 : tensor<2x?x32xf32>
    %1226 = stablehlo.reduce(%1225 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %1227 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1228 = stablehlo.concatenate %c_15, %1227, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1229 = stablehlo.dynamic_broadcast_in_dim %1226, %1228, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1230 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1231 = stablehlo.concatenate %c_15, %1230, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1232 = stablehlo.dynamic_broadcast_in_dim %cst_13, %1231, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1233 = stablehlo.divide %1229, %1232 : tensor<2x?x1xf32>
    %1234 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1235 = stablehlo.concatenate %c_15, %1234, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1236 = stablehlo.dynamic_broadcast_in_dim %1220, %1235, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1237 = stablehlo.subtract %1212, %1236 : tensor<2x?x32xf32>
    %1238 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1239 = stablehlo.concatenate %c_15, %1238, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1240 = stablehlo.dynamic_broadcast_in_dim %cst_11, %1239, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1241 = stablehlo.add %1233, %1240 : tensor<2x?x1xf32>
    %1242 = stablehlo.rsqrt %1241 : tensor<2x?x1xf32>
    %1243 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1244 = stablehlo.concatenate %c_15, %1243, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1245 = stablehlo.dynamic_broadcast_in_dim %1242, %1244, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1246 = stablehlo.multiply %1237, %1245 : tensor<2x?x32xf32>
    %1247 = stablehlo.broadcast_in_dim %arg53, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %1248 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1249 = stablehlo.concatenate %c_15, %1248, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1250 = stablehlo.dynamic_broadcast_in_dim %1247, %1249, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1251 = stablehlo.multiply %1246, %1250 : tensor<2x?x32xf32>
    %1252 = stablehlo.broadcast_in_dim %arg52, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %1253 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1254 = stablehlo.concatenate %c_15, %1253, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1255 = stablehlo.dynamic_broadcast_in_dim %1252, %1254, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1256 = stablehlo.add %1251, %1255 : tensor<2x?x32xf32>
    %1257 = stablehlo.dot_general %1256, %arg56, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x64xf32>) -> tensor<2x?x64xf32>
    %1258 = stablehlo.multiply %1257, %1257 : tensor<2x?x64xf32>
    %1259 = stablehlo.multiply %1258, %1257 : tensor<2x?x64xf32>
    %1260 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1261 = stablehlo.concatenate %c_15, %1260, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1262 = stablehlo.dynamic_broadcast_in_dim %cst_2, %1261, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %1263 = stablehlo.multiply %1262, %1259 : tensor<2x?x64xf32>
    %1264 = stablehlo.add %1257, %1263 : tensor<2x?x64xf32>
    %1265 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1266 = stablehlo.concatenate %c_15, %1265, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1267 = stablehlo.dynamic_broadcast_in_dim %cst_1, %1266, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %1268 = stablehlo.multiply %1267, %1264 : tensor<2x?x64xf32>
    %1269 = stablehlo.tanh %1268 : tensor<2x?x64xf32>
    %1270 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1271 = stablehlo.concatenate %c_15, %1270, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1272 = stablehlo.dynamic_broadcast_in_dim %cst_0, %1271, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %1273 = stablehlo.add %1272, %1269 : tensor<2x?x64xf32>
    %1274 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1275 = stablehlo.concatenate %c_15, %1274, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1276 = stablehlo.dynamic_broadcast_in_dim %cst, %1275, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %1277 = stablehlo.multiply %1276, %1273 : tensor<2x?x64xf32>
    %1278 = stablehlo.multiply %1257, %1277 : tensor<2x?x64xf32>
    %1279 = stablehlo.dot_general %1278, %arg49, contracting_dims = [2] x [0] : (tensor<2x?x64xf32>, tensor<64x32xf32>) -> tensor<2x?x32xf32>
    %1280 = stablehlo.add %1212, %1279 : tensor<2x?x32xf32>
    %1281 = stablehlo.reduce(%1280 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %1282 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1283 = stablehlo.concatenate %c_15, %1282, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1284 = stablehlo.dynamic_broadcast_in_dim %1281, %1283, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1285 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1286 = stablehlo.concatenate %c_15, %1285, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1287 = stablehlo.dynamic_broadcast_in_dim %cst_13, %1286, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1288 = stablehlo.divide %1284, %1287 : tensor<2x?x1xf32>
    %1289 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1290 = stablehlo.concatenate %c_15, %1289, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1291 = stablehlo.dynamic_broadcast_in_dim %1288, %1290, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1292 = stablehlo.subtract %1280, %1291 : tensor<2x?x32xf32>
    %1293 = stablehlo.multiply %1292, %1292 : tensor<2x?x32xf32>
    %1294 = stablehlo.reduce(%1293 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %1295 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1296 = stablehlo.concatenate %c_15, %1295, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1297 = stablehlo.dynamic_broadcast_in_dim %1294, %1296, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1298 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1299 = stablehlo.concatenate %c_15, %1298, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1300 = stablehlo.dynamic_broadcast_in_dim %cst_13, %1299, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1301 = stablehlo.divide %1297, %1300 : tensor<2x?x1xf32>
    %1302 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1303 = stablehlo.concatenate %c_15, %1302, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1304 = stablehlo.dynamic_broadcast_in_dim %1288, %1303, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1305 = stablehlo.subtract %1280, %1304 : tensor<2x?x32xf32>
    %1306 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1307 = stablehlo.concatenate %c_15, %1306, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1308 = stablehlo.dynamic_broadcast_in_dim %cst_11, %1307, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1309 = stablehlo.add %1301, %1308 : tensor<2x?x1xf32>
    %1310 = stablehlo.rsqrt %1309 : tensor<2x?x1xf32>
    %1311 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1312 = stablehlo.concatenate %c_15, %1311, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1313 = stablehlo.dynamic_broadcast_in_dim %1310, %1312, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1314 = stablehlo.multiply %1305, %1313 : tensor<2x?x32xf32>
    %1315 = stablehlo.broadcast_in_dim %arg59, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %1316 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1317 = stablehlo.concatenate %c_15, %1316, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1318 = stablehlo.dynamic_broadcast_in_dim %1315, %1317, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1319 = stablehlo.multiply %1314, %1318 : tensor<2x?x32xf32>
    %1320 = stablehlo.broadcast_in_dim %arg58, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %1321 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1322 = stablehlo.concatenate %c_15, %1321, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1323 = stablehlo.dynamic_broadcast_in_dim %1320, %1322, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1324 = stablehlo.add %1319, %1323 : tensor<2x?x32xf32>
    %1325 = stablehlo.dot_general %1324, %arg63, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x96xf32>) -> tensor<2x?x96xf32>
    %1326 = stablehlo.concatenate %c_10, %c_10, %c_10, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1327 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1328 = stablehlo.concatenate %c_15, %1327, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1329 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1330 = stablehlo.real_dynamic_slice %1325, %1326, %1328, %1329 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1331 = stablehlo.concatenate %c_10, %c_10, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1332 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1333 = stablehlo.concatenate %c_15, %1332, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1334 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1335 = stablehlo.real_dynamic_slice %1325, %1331, %1333, %1334 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1336 = stablehlo.concatenate %c_10, %c_10, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1337 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1338 = stablehlo.concatenate %c_15, %1337, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1339 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1340 = stablehlo.real_dynamic_slice %1325, %1336, %1338, %1339 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1341 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1342 = stablehlo.concatenate %c_15, %1341, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1343 = stablehlo.dynamic_reshape %1330, %1342 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %1344 = stablehlo.transpose %1343, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %1345 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1346 = stablehlo.concatenate %c_15, %1345, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1347 = stablehlo.dynamic_reshape %1335, %1346 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %1348 = stablehlo.transpose %1347, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %1349 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1350 = stablehlo.concatenate %c_15, %1349, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1351 = stablehlo.dynamic_reshape %1340, %1350 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %1352 = stablehlo.transpose %1351, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %1353 = stablehlo.transpose %1348, dims = [0, 1, 3, 2] : (tensor<2x4x?x8xf32>) -> tensor<2x4x8x?xf32>
    %1354 = stablehlo.dot_general %1344, %1353, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x4x?x8xf32>, tensor<2x4x8x?xf32>) -> tensor<2x4x?x?xf32>
    %1355 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1356 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1357 = stablehlo.concatenate %c_15, %c_7, %1355, %1356, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1358 = stablehlo.dynamic_broadcast_in_dim %cst_5, %1357, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %1359 = stablehlo.divide %1354, %1358 : tensor<2x4x?x?xf32>
    %1360 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1361 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1362 = stablehlo.concatenate %1360, %1361, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %1363 = stablehlo.dynamic_broadcast_in_dim %c, %1362, dims = [] : (tensor<i1>, tensor<2xi32>) -> tensor<?x?xi1>
    %1364 = call @tril(%arg0, %1363) : (tensor<i32>, tensor<?x?xi1>) -> tensor<?x?xi1>
    %1365 = call @_where(%arg0, %1364, %1359, %cst_4) : (tensor<i32>, tensor<?x?xi1>, tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?x?xf32>
    %1366 = stablehlo.reduce(%1365 init: %cst_3) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?xf32>
    %1367 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1368 = stablehlo.concatenate %c_15, %c_7, %1367, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1369 = stablehlo.dynamic_broadcast_in_dim %cst_3, %1368, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x4x?xf32>
    %1370 = stablehlo.maximum %1369, %1366 : tensor<2x4x?xf32>
    %1371 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1372 = stablehlo.concatenate %c_15, %c_7, %1371, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1373 = stablehlo.dynamic_broadcast_in_dim %1370, %1372, dims = [0, 1, 2] : (tensor<2x4x?xf32>, tensor<4xi32>) -> tensor<2x4x?x1xf32>
    %1374 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1375 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1376 = stablehlo.concatenate %c_15, %c_7, %1374, %1375, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1377 = stablehlo.dynamic_broadcast_in_dim %1373, %1376, dims = [0, 1, 2, 3] : (tensor<2x4x?x1xf32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %1378 = stablehlo.subtract %1365, %1377 : tensor<2x4x?x?xf32>
    %1379 = stablehlo.exponential %1378 : tensor<2x4x?x?xf32>
    %1380 = stablehlo.reduce(%1379 init: %cst_16) applies stablehlo.add across dimensions = [3] : (tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?xf32>
    %1381 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1382 = stablehlo.concatenate %c_15, %c_7, %1381, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1383 = stablehlo.dynamic_broadcast_in_dim %1380, %1382, dims = [0, 1, 2] : (tensor<2x4x?xf32>, tensor<4xi32>) -> tensor<2x4x?x1xf32>
    %1384 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1385 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1386 = stablehlo.concatenate %c_15, %c_7, %1384, %1385, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1387 = stablehlo.dynamic_broadcast_in_dim %1383, %1386, dims = [0, 1, 2, 3] : (tensor<2x4x?x1xf32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %1388 = stablehlo.divide %1379, %1387 : tensor<2x4x?x?xf32>
    %1389 = stablehlo.dot_general %1388, %1352, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x4x?x?xf32>, tensor<2x4x?x8xf32>) -> tensor<2x4x?x8xf32>
    %1390 = stablehlo.transpose %1389, dims = [0, 2, 1, 3] : (tensor<2x4x?x8xf32>) -> tensor<2x?x4x8xf32>
    %1391 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1392 = stablehlo.concatenate %c_15, %1391, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1393 = stablehlo.dynamic_reshape %1390, %1392 : (tensor<2x?x4x8xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1394 = stablehlo.dot_general %1393, %arg62, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x32xf32>) -> tensor<2x?x32xf32>
    %1395 = stablehlo.add %1280, %1394 : tensor<2x?x32xf32>
    %1396 = stablehlo.reduce(%1395 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %1397 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1398 = stablehlo.concatenate %c_15, %1397, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1399 = stablehlo.dynamic_broadcast_in_dim %1396, %1398, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1400 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1401 = stablehlo.concatenate %c_15, %1400, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1402 = stablehlo.dynamic_broadcast_in_dim %cst_13, %1401, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1403 = stablehlo.divide %1399, %1402 : tensor<2x?x1xf32>
    %1404 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1405 = stablehlo.concatenate %c_15, %1404, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1406 = stablehlo.dynamic_broadcast_in_dim %1403, %1405, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1407 = stablehlo.subtract %1395, %1406 : tensor<2x?x32xf32>
    %1408 = stablehlo.multiply %1407, %1407 : tensor<2x?x32xf32>
    %1409 = stablehlo.reduce(%1408 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %1410 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1411 = stablehlo.concatenate %c_15, %1410, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1412 = stablehlo.dynamic_broadcast_in_dim %1409, %1411, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1413 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1414 = stablehlo.concatenate %c_15, %1413, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1415 = stablehlo.dynamic_broadcast_in_dim %cst_13, %1414, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1416 = stablehlo.divide %1412, %1415 : tensor<2x?x1xf32>
    %1417 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1418 = stablehlo.concatenate %c_15, %1417, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1419 = stablehlo.dynamic_broadcast_in_dim %1403, %1418, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1420 = stablehlo.subtract %1395, %1419 : tensor<2x?x32xf32>
    %1421 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1422 = stablehlo.concatenate %c_15, %1421, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1423 = stablehlo.dynamic_broadcast_in_dim %cst_11, %1422, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1424 = stablehlo.add %1416, %1423 : tensor<2x?x1xf32>
    %1425 = stablehlo.rsqrt %1424 : tensor<2x?x1xf32>
    %1426 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1427 = stablehlo.concatenate %c_15, %1426, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1428 = stablehlo.dynamic_broadcast_in_dim %1425, %1427, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1429 = stablehlo.multiply %1420, %1428 : tensor<2x?x32xf32>
    %1430 = stablehlo.broadcast_in_dim %arg61, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %1431 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1432 = stablehlo.concatenate %c_15, %1431, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1433 = stablehlo.dynamic_broadcast_in_dim %1430, %1432, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1434 = stablehlo.multiply %1429, %1433 : tensor<2x?x32xf32>
    %1435 = stablehlo.broadcast_in_dim %arg60, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %1436 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1437 = stablehlo.concatenate %c_15, %1436, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1438 = stablehlo.dynamic_broadcast_in_dim %1435, %1437, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1439 = stablehlo.add %1434, %1438 : tensor<2x?x32xf32>
    %1440 = stablehlo.dot_general %1439, %arg64, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x64xf32>) -> tensor<2x?x64xf32>
    %1441 = stablehlo.multiply %1440, %1440 : tensor<2x?x64xf32>
    %1442 = stablehlo.multiply %1441, %1440 : tensor<2x?x64xf32>
    %1443 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1444 = stablehlo.concatenate %c_15, %1443, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1445 = stablehlo.dynamic_broadcast_in_dim %cst_2, %1444, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %1446 = stablehlo.multiply %1445, %1442 : tensor<2x?x64xf32>
    %1447 = stablehlo.add %1440, %1446 : tensor<2x?x64xf32>
    %1448 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1449 = stablehlo.concatenate %c_15, %1448, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1450 = stablehlo.dynamic_broadcast_in_dim %cst_1, %1449, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %1451 = stablehlo.multiply %1450, %1447 : tensor<2x?x64xf32>
    %1452 = stablehlo.tanh %1451 : tensor<2x?x64xf32>
    %1453 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1454 = stablehlo.concatenate %c_15, %1453, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1455 = stablehlo.dynamic_broadcast_in_dim %cst_0, %1454, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %1456 = stablehlo.add %1455, %1452 : tensor<2x?x64xf32>
    %1457 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1458 = stablehlo.concatenate %c_15, %1457, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1459 = stablehlo.dynamic_broadcast_in_dim %cst, %1458, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %1460 = stablehlo.multiply %1459, %1456 : tensor<2x?x64xf32>
    %1461 = stablehlo.multiply %1440, %1460 : tensor<2x?x64xf32>
    %1462 = stablehlo.dot_general %1461, %arg57, contracting_dims = [2] x [0] : (tensor<2x?x64xf32>, tensor<64x32xf32>) -> tensor<2x?x32xf32>
    %1463 = stablehlo.add %1395, %1462 : tensor<2x?x32xf32>
    %1464 = stablehlo.reduce(%1463 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %1465 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1466 = stablehlo.concatenate %c_15, %1465, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1467 = stablehlo.dynamic_broadcast_in_dim %1464, %1466, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1468 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1469 = stablehlo.concatenate %c_15, %1468, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1470 = stablehlo.dynamic_broadcast_in_dim %cst_13, %1469, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1471 = stablehlo.divide %1467, %1470 : tensor<2x?x1xf32>
    %1472 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1473 = stablehlo.concatenate %c_15, %1472, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1474 = stablehlo.dynamic_broadcast_in_dim %1471, %1473, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1475 = stablehlo.subtract %1463, %1474 : tensor<2x?x32xf32>
    %1476 = stablehlo.multiply %1475, %1475 : tensor<2x?x32xf32>
    %1477 = stablehlo.reduce(%1476 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %1478 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1479 = stablehlo.concatenate %c_15, %1478, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1480 = stablehlo.dynamic_broadcast_in_dim %1477, %1479, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1481 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1482 = stablehlo.concatenate %c_15, %1481, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1483 = stablehlo.dynamic_broadcast_in_dim %cst_13, %1482, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1484 = stablehlo.divide %1480, %1483 : tensor<2x?x1xf32>
    %1485 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1486 = stablehlo.concatenate %c_15, %1485, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1487 = stablehlo.dynamic_broadcast_in_dim %1471, %1486, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1488 = stablehlo.subtract %1463, %1487 : tensor<2x?x32xf32>
    %1489 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1490 = stablehlo.concatenate %c_15, %1489, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1491 = stablehlo.dynamic_broadcast_in_dim %cst_11, %1490, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1492 = stablehlo.add %1484, %1491 : tensor<2x?x1xf32>
    %1493 = stablehlo.rsqrt %1492 : tensor<2x?x1xf32>
    %1494 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1495 = stablehlo.concatenate %c_15, %1494, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1496 = stablehlo.dynamic_broadcast_in_dim %1493, %1495, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1497 = stablehlo.multiply %1488, %1496 : tensor<2x?x32xf32>
    %1498 = stablehlo.broadcast_in_dim %arg67, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %1499 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1500 = stablehlo.concatenate %c_15, %1499, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1501 = stablehlo.dynamic_broadcast_in_dim %1498, %1500, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1502 = stablehlo.multiply %1497, %1501 : tensor<2x?x32xf32>
    %1503 = stablehlo.broadcast_in_dim %arg66, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %1504 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1505 = stablehlo.concatenate %c_15, %1504, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1506 = stablehlo.dynamic_broadcast_in_dim %1503, %1505, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1507 = stablehlo.add %1502, %1506 : tensor<2x?x32xf32>
    %1508 = stablehlo.dot_general %1507, %arg71, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x96xf32>) -> tensor<2x?x96xf32>
    %1509 = stablehlo.concatenate %c_10, %c_10, %c_10, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1510 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1511 = stablehlo.concatenate %c_15, %1510, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1512 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1513 = stablehlo.real_dynamic_slice %1508, %1509, %1511, %1512 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1514 = stablehlo.concatenate %c_10, %c_10, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1515 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1516 = stablehlo.concatenate %c_15, %1515, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1517 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1518 = stablehlo.real_dynamic_slice %1508, %1514, %1516, %1517 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1519 = stablehlo.concatenate %c_10, %c_10, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1520 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1521 = stablehlo.concatenate %c_15, %1520, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1522 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1523 = stablehlo.real_dynamic_slice %1508, %1519, %1521, %1522 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1524 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1525 = stablehlo.concatenate %c_15, %1524, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1526 = stablehlo.dynamic_reshape %1513, %1525 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %1527 = stablehlo.transpose %1526, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %1528 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1529 = stablehlo.concatenate %c_15, %1528, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1530 = stablehlo.dynamic_reshape %1518, %1529 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %1531 = stablehlo.transpose %1530, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %1532 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1533 = stablehlo.concatenate %c_15, %1532, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1534 = stablehlo.dynamic_reshape %1523, %1533 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %1535 = stablehlo.transpose %1534, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %1536 = stablehlo.transpose %1531, dims = [0, 1, 3, 2] : (tensor<2x4x?x8xf32>) -> tensor<2x4x8x?xf32>
    %1537 = stablehlo.dot_general %1527, %1536, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x4x?x8xf32>, tensor<2x4x8x?xf32>) -> tensor<2x4x?x?xf32>
    %1538 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1539 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1540 = stablehlo.concatenate %c_15, %c_7, %1538, %1539, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1541 = stablehlo.dynamic_broadcast_in_dim %cst_5, %1540, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %1542 = stablehlo.divide %1537, %1541 : tensor<2x4x?x?xf32>
    %1543 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1544 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1545 = stablehlo.concatenate %1543, %1544, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %1546 = stablehlo.dynamic_broadcast_in_dim %c, %1545, dims = [] : (tensor<i1>, tensor<2xi32>) -> tensor<?x?xi1>
    %1547 = call @tril(%arg0, %1546) : (tensor<i32>, tensor<?x?xi1>) -> tensor<?x?xi1>
    %1548 = call @_where(%arg0, %1547, %1542, %cst_4) : (tensor<i32>, tensor<?x?xi1>, tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?x?xf32>
    %1549 = stablehlo.reduce(%1548 init: %cst_3) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?xf32>
    %1550 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1551 = stablehlo.concatenate %c_15, %c_7, %1550, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1552 = stablehlo.dynamic_broadcast_in_dim %cst_3, %1551, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x4x?xf32>
    %1553 = stablehlo.maximum %1552, %1549 : tensor<2x4x?xf32>
    %1554 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1555 = stablehlo.concatenate %c_15, %c_7, %1554, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1556 = stablehlo.dynamic_broadcast_in_dim %1553, %1555, dims = [0, 1, 2] : (tensor<2x4x?xf32>, tensor<4xi32>) -> tensor<2x4x?x1xf32>
    %1557 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1558 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1559 = stablehlo.concatenate %c_15, %c_7, %1557, %1558, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1560 = stablehlo.dynamic_broadcast_in_dim %1556, %1559, dims = [0, 1, 2, 3] : (tensor<2x4x?x1xf32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %1561 = stablehlo.subtract %1548, %1560 : tensor<2x4x?x?xf32>
    %1562 = stablehlo.exponential %1561 : tensor<2x4x?x?xf32>
    %1563 = stablehlo.reduce(%1562 init: %cst_16) applies stablehlo.add across dimensions = [3] : (tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?xf32>
    %1564 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1565 = stablehlo.concatenate %c_15, %c_7, %1564, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1566 = stablehlo.dynamic_broadcast_in_dim %1563, %1565, dims = [0, 1, 2] : (tensor<2x4x?xf32>, tensor<4xi32>) -> tensor<2x4x?x1xf32>
    %1567 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1568 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1569 = stablehlo.concatenate %c_15, %c_7, %1567, %1568, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1570 = stablehlo.dynamic_broadcast_in_dim %1566, %1569, dims = [0, 1, 2, 3] : (tensor<2x4x?x1xf32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %1571 = stablehlo.divide %1562, %1570 : tensor<2x4x?x?xf32>
    %1572 = stablehlo.dot_general %1571, %1535, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x4x?x?xf32>, tensor<2x4x?x8xf32>) -> tensor<2x4x?x8xf32>
    %1573 = stablehlo.transpose %1572, dims = [0, 2, 1, 3] : (tensor<2x4x?x8xf32>) -> tensor<2x?x4x8xf32>
    %1574 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1575 = stablehlo.concatenate %c_15, %1574, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1576 = stablehlo.dynamic_reshape %1573, %1575 : (tensor<2x?x4x8xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1577 = stablehlo.dot_general %1576, %arg70, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x32xf32>) -> tensor<2x?x32xf32>
    %1578 = stablehlo.add %1463, %1577 : tensor<2x?x32xf32>
    %1579 = stablehlo.reduce(%1578 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %1580 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1581 = stablehlo.concatenate %c_15, %1580, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1582 = stablehlo.dynamic_broadcast_in_dim %1579, %1581, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1583 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1584 = stablehlo.concatenate %c_15, %1583, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1585 = stablehlo.dynamic_broadcast_in_dim %cst_13, %1584, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1586 = stablehlo.divide %1582, %1585 : tensor<2x?x1xf32>
    %1587 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1588 = stablehlo.concatenate %c_15, %1587, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1589 = stablehlo.dynamic_broadcast_in_dim %1586, %1588, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1590 = stablehlo.subtract %1578, %1589 : tensor<2x?x32xf32>
    %1591 = stablehlo.multiply %1590, %1590 : tensor<2x?x32xf32>
    %1592 = stablehlo.reduce(%1591 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %1593 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1594 = stablehlo.concatenate %c_15, %1593, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1595 = stablehlo.dynamic_broadcast_in_dim %1592, %1594, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1596 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1597 = stablehlo.concatenate %c_15, %1596, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1598 = stablehlo.dynamic_broadcast_in_dim %cst_13, %1597, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1599 = stablehlo.divide %1595, %1598 : tensor<2x?x1xf32>
    %1600 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1601 = stablehlo.concatenate %c_15, %1600, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1602 = stablehlo.dynamic_broadcast_in_dim %1586, %1601, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1603 = stablehlo.subtract %1578, %1602 : tensor<2x?x32xf32>
    %1604 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1605 = stablehlo.concatenate %c_15, %1604, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1606 = stablehlo.dynamic_broadcast_in_dim %cst_11, %1605, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1607 = stablehlo.add %1599, %1606 : tensor<2x?x1xf32>
    %1608 = stablehlo.rsqrt %1607 : tensor<2x?x1xf32>
    %1609 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1610 = stablehlo.concatenate %c_15, %1609, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1611 = stablehlo.dynamic_broadcast_in_dim %1608, %1610, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1612 = stablehlo.multiply %1603, %1611 : tensor<2x?x32xf32>
    %1613 = stablehlo.broadcast_in_dim %arg69, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %1614 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1615 = stablehlo.concatenate %c_15, %1614, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1616 = stablehlo.dynamic_broadcast_in_dim %1613, %1615, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1617 = stablehlo.multiply %1612, %1616 : tensor<2x?x32xf32>
    %1618 = stablehlo.broadcast_in_dim %arg68, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %1619 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1620 = stablehlo.concatenate %c_15, %1619, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1621 = stablehlo.dynamic_broadcast_in_dim %1618, %1620, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1622 = stablehlo.add %1617, %1621 : tensor<2x?x32xf32>
    %1623 = stablehlo.dot_general %1622, %arg72, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x64xf32>) -> tensor<2x?x64xf32>
    %1624 = stablehlo.multiply %1623, %1623 : tensor<2x?x64xf32>
    %1625 = stablehlo.multiply %1624, %1623 : tensor<2x?x64xf32>
    %1626 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1627 = stablehlo.concatenate %c_15, %1626, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1628 = stablehlo.dynamic_broadcast_in_dim %cst_2, %1627, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %1629 = stablehlo.multiply %1628, %1625 : tensor<2x?x64xf32>
    %1630 = stablehlo.add %1623, %1629 : tensor<2x?x64xf32>
    %1631 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1632 = stablehlo.concatenate %c_15, %1631, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1633 = stablehlo.dynamic_broadcast_in_dim %cst_1, %1632, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %1634 = stablehlo.multiply %1633, %1630 : tensor<2x?x64xf32>
    %1635 = stablehlo.tanh %1634 : tensor<2x?x64xf32>
    %1636 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1637 = stablehlo.concatenate %c_15, %1636, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1638 = stablehlo.dynamic_broadcast_in_dim %cst_0, %1637, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %1639 = stablehlo.add %1638, %1635 : tensor<2x?x64xf32>
    %1640 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1641 = stablehlo.concatenate %c_15, %1640, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1642 = stablehlo.dynamic_broadcast_in_dim %cst, %1641, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %1643 = stablehlo.multiply %1642, %1639 : tensor<2x?x64xf32>
    %1644 = stablehlo.multiply %1623, %1643 : tensor<2x?x64xf32>
    %1645 = stablehlo.dot_general %1644, %arg65, contracting_dims = [2] x [0] : (tensor<2x?x64xf32>, tensor<64x32xf32>) -> tensor<2x?x32xf32>
    %1646 = stablehlo.add %1578, %1645 : tensor<2x?x32xf32>
    %1647 = stablehlo.reduce(%1646 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %1648 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1649 = stablehlo.concatenate %c_15, %1648, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1650 = stablehlo.dynamic_broadcast_in_dim %1647, %1649, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1651 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1652 = stablehlo.concatenate %c_15, %1651, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1653 = stablehlo.dynamic_broadcast_in_dim %cst_13, %1652, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1654 = stablehlo.divide %1650, %1653 : tensor<2x?x1xf32>
    %1655 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1656 = stablehlo.concatenate %c_15, %1655, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1657 = stablehlo.dynamic_broadcast_in_dim %1654, %1656, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1658 = stablehlo.subtract %1646, %1657 : tensor<2x?x32xf32>
    %1659 = stablehlo.multiply %1658, %1658 : tensor<2x?x32xf32>
    %1660 = stablehlo.reduce(%1659 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %1661 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1662 = stablehlo.concatenate %c_15, %1661, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1663 = stablehlo.dynamic_broadcast_in_dim %1660, %1662, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1664 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1665 = stablehlo.concatenate %c_15, %1664, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1666 = stablehlo.dynamic_broadcast_in_dim %cst_13, %1665, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1667 = stablehlo.divide %1663, %1666 : tensor<2x?x1xf32>
    %1668 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1669 = stablehlo.concatenate %c_15, %1668, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1670 = stablehlo.dynamic_broadcast_in_dim %1654, %1669, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1671 = stablehlo.subtract %1646, %1670 : tensor<2x?x32xf32>
    %1672 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1673 = stablehlo.concatenate %c_15, %1672, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1674 = stablehlo.dynamic_broadcast_in_dim %cst_11, %1673, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1675 = stablehlo.add %1667, %1674 : tensor<2x?x1xf32>
    %1676 = stablehlo.rsqrt %1675 : tensor<2x?x1xf32>
    %1677 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1678 = stablehlo.concatenate %c_15, %1677, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1679 = stablehlo.dynamic_broadcast_in_dim %1676, %1678, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1680 = stablehlo.multiply %1671, %1679 : tensor<2x?x32xf32>
    %1681 = stablehlo.broadcast_in_dim %arg75, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %1682 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1683 = stablehlo.concatenate %c_15, %1682, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1684 = stablehlo.dynamic_broadcast_in_dim %1681, %1683, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1685 = stablehlo.multiply %1680, %1684 : tensor<2x?x32xf32>
    %1686 = stablehlo.broadcast_in_dim %arg74, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %1687 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1688 = stablehlo.concatenate %c_15, %1687, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1689 = stablehlo.dynamic_broadcast_in_dim %1686, %1688, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1690 = stablehlo.add %1685, %1689 : tensor<2x?x32xf32>
    %1691 = stablehlo.dot_general %1690, %arg79, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x96xf32>) -> tensor<2x?x96xf32>
    %1692 = stablehlo.concatenate %c_10, %c_10, %c_10, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1693 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1694 = stablehlo.concatenate %c_15, %1693, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1695 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1696 = stablehlo.real_dynamic_slice %1691, %1692, %1694, %1695 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1697 = stablehlo.concatenate %c_10, %c_10, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1698 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1699 = stablehlo.concatenate %c_15, %1698, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1700 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1701 = stablehlo.real_dynamic_slice %1691, %1697, %1699, %1700 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1702 = stablehlo.concatenate %c_10, %c_10, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1703 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1704 = stablehlo.concatenate %c_15, %1703, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1705 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1706 = stablehlo.real_dynamic_slice %1691, %1702, %1704, %1705 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1707 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1708 = stablehlo.concatenate %c_15, %1707, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1709 = stablehlo.dynamic_reshape %1696, %1708 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %1710 = stablehlo.transpose %1709, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %1711 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1712 = stablehlo.concatenate %c_15, %1711, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1713 = stablehlo.dynamic_reshape %1701, %1712 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %1714 = stablehlo.transpose %1713, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %1715 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1716 = stablehlo.concatenate %c_15, %1715, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1717 = stablehlo.dynamic_reshape %1706, %1716 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %1718 = stablehlo.transpose %1717, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %1719 = stablehlo.transpose %1714, dims = [0, 1, 3, 2] : (tensor<2x4x?x8xf32>) -> tensor<2x4x8x?xf32>
    %1720 = stablehlo.dot_general %1710, %1719, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x4x?x8xf32>, tensor<2x4x8x?xf32>) -> tensor<2x4x?x?xf32>
    %1721 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1722 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1723 = stablehlo.concatenate %c_15, %c_7, %1721, %1722, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1724 = stablehlo.dynamic_broadcast_in_dim %cst_5, %1723, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %1725 = stablehlo.divide %1720, %1724 : tensor<2x4x?x?xf32>
    %1726 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1727 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1728 = stablehlo.concatenate %1726, %1727, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %1729 = stablehlo.dynamic_broadcast_in_dim %c, %1728, dims = [] : (tensor<i1>, tensor<2xi32>) -> tensor<?x?xi1>
    %1730 = call @tril(%arg0, %1729) : (tensor<i32>, tensor<?x?xi1>) -> tensor<?x?xi1>
    %1731 = call @_where(%arg0, %1730, %1725, %cst_4) : (tensor<i32>, tensor<?x?xi1>, tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?x?xf32>
    %1732 = stablehlo.reduce(%1731 init: %cst_3) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?xf32>
    %1733 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1734 = stablehlo.concatenate %c_15, %c_7, %1733, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1735 = stablehlo.dynamic_broadcast_in_dim %cst_3, %1734, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x4x?xf32>
    %1736 = stablehlo.maximum %1735, %1732 : tensor<2x4x?xf32>
    %1737 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1738 = stablehlo.concatenate %c_15, %c_7, %1737, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1739 = stablehlo.dynamic_broadcast_in_dim %1736, %1738, dims = [0, 1, 2] : (tensor<2x4x?xf32>, tensor<4xi32>) -> tensor<2x4x?x1xf32>
    %1740 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1741 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1742 = stablehlo.concatenate %c_15, %c_7, %1740, %1741, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1743 = stablehlo.dynamic_broadcast_in_dim %1739, %1742, dims = [0, 1, 2, 3] : (tensor<2x4x?x1xf32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %1744 = stablehlo.subtract %1731, %1743 : tensor<2x4x?x?xf32>
    %1745 = stablehlo.exponential %1744 : tensor<2x4x?x?xf32>
    %1746 = stablehlo.reduce(%1745 init: %cst_16) applies stablehlo.add across dimensions = [3] : (tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?xf32>
    %1747 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1748 = stablehlo.concatenate %c_15, %c_7, %1747, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1749 = stablehlo.dynamic_broadcast_in_dim %1746, %1748, dims = [0, 1, 2] : (tensor<2x4x?xf32>, tensor<4xi32>) -> tensor<2x4x?x1xf32>
    %1750 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1751 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1752 = stablehlo.concatenate %c_15, %c_7, %1750, %1751, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1753 = stablehlo.dynamic_broadcast_in_dim %1749, %1752, dims = [0, 1, 2, 3] : (tensor<2x4x?x1xf32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %1754 = stablehlo.divide %1745, %1753 : tensor<2x4x?x?xf32>
    %1755 = stablehlo.dot_general %1754, %1718, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x4x?x?xf32>, tensor<2x4x?x8xf32>) -> tensor<2x4x?x8xf32>
    %1756 = stablehlo.transpose %1755, dims = [0, 2, 1, 3] : (tensor<2x4x?x8xf32>) -> tensor<2x?x4x8xf32>
    %1757 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1758 = stablehlo.concatenate %c_15, %1757, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1759 = stablehlo.dynamic_reshape %1756, %1758 : (tensor<2x?x4x8xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1760 = stablehlo.dot_general %1759, %arg78, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x32xf32>) -> tensor<2x?x32xf32>
    %1761 = stablehlo.add %1646, %1760 : tensor<2x?x32xf32>
    %1762 = stablehlo.reduce(%1761 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %1763 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1764 = stablehlo.concatenate %c_15, %1763, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1765 = stablehlo.dynamic_broadcast_in_dim %1762, %1764, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1766 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1767 = stablehlo.concatenate %c_15, %1766, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1768 = stablehlo.dynamic_broadcast_in_dim %cst_13, %1767, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1769 = stablehlo.divide %1765, %1768 : tensor<2x?x1xf32>
    %1770 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1771 = stablehlo.concatenate %c_15, %1770, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1772 = stablehlo.dynamic_broadcast_in_dim %1769, %1771, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1773 = stablehlo.subtract %1761, %1772 : tensor<2x?x32xf32>
    %1774 = stablehlo.multiply %1773, %1773 : tensor<2x?x32xf32>
    %1775 = stablehlo.reduce(%1774 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %1776 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1777 = stablehlo.concatenate %c_15, %1776, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1778 = stablehlo.dynamic_broadcast_in_dim %1775, %1777, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1779 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1780 = stablehlo.concatenate %c_15, %1779, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1781 = stablehlo.dynamic_broadcast_in_dim %cst_13, %1780, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1782 = stablehlo.divide %1778, %1781 : tensor<2x?x1xf32>
    %1783 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1784 = stablehlo.concatenate %c_15, %1783, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1785 = stablehlo.dynamic_broadcast_in_dim %1769, %1784, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1786 = stablehlo.subtract %1761, %1785 : tensor<2x?x32xf32>
    %1787 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1788 = stablehlo.concatenate %c_15, %1787, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1789 = stablehlo.dynamic_broadcast_in_dim %cst_11, %1788, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1790 = stablehlo.add %1782, %1789 : tensor<2x?x1xf32>
    %1791 = stablehlo.rsqrt %1790 : tensor<2x?x1xf32>
    %1792 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1793 = stablehlo.concatenate %c_15, %1792, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1794 = stablehlo.dynamic_broadcast_in_dim %1791, %1793, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1795 = stablehlo.multiply %1786, %1794 : tensor<2x?x32xf32>
    %1796 = stablehlo.broadcast_in_dim %arg77, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %1797 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1798 = stablehlo.concatenate %c_15, %1797, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1799 = stablehlo.dynamic_broadcast_in_dim %1796, %1798, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1800 = stablehlo.multiply %1795, %1799 : tensor<2x?x32xf32>
    %1801 = stablehlo.broadcast_in_dim %arg76, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %1802 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1803 = stablehlo.concatenate %c_15, %1802, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1804 = stablehlo.dynamic_broadcast_in_dim %1801, %1803, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1805 = stablehlo.add %1800, %1804 : tensor<2x?x32xf32>
    %1806 = stablehlo.dot_general %1805, %arg80, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x64xf32>) -> tensor<2x?x64xf32>
    %1807 = stablehlo.multiply %1806, %1806 : tensor<2x?x64xf32>
    %1808 = stablehlo.multiply %1807, %1806 : tensor<2x?x64xf32>
    %1809 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1810 = stablehlo.concatenate %c_15, %1809, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1811 = stablehlo.dynamic_broadcast_in_dim %cst_2, %1810, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %1812 = stablehlo.multiply %1811, %1808 : tensor<2x?x64xf32>
    %1813 = stablehlo.add %1806, %1812 : tensor<2x?x64xf32>
    %1814 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1815 = stablehlo.concatenate %c_15, %1814, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1816 = stablehlo.dynamic_broadcast_in_dim %cst_1, %1815, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %1817 = stablehlo.multiply %1816, %1813 : tensor<2x?x64xf32>
    %1818 = stablehlo.tanh %1817 : tensor<2x?x64xf32>
    %1819 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1820 = stablehlo.concatenate %c_15, %1819, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1821 = stablehlo.dynamic_broadcast_in_dim %cst_0, %1820, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %1822 = stablehlo.add %1821, %1818 : tensor<2x?x64xf32>
    %1823 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1824 = stablehlo.concatenate %c_15, %1823, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1825 = stablehlo.dynamic_broadcast_in_dim %cst, %1824, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %1826 = stablehlo.multiply %1825, %1822 : tensor<2x?x64xf32>
    %1827 = stablehlo.multiply %1806, %1826 : tensor<2x?x64xf32>
    %1828 = stablehlo.dot_general %1827, %arg73, contracting_dims = [2] x [0] : (tensor<2x?x64xf32>, tensor<64x32xf32>) -> tensor<2x?x32xf32>
    %1829 = stablehlo.add %1761, %1828 : tensor<2x?x32xf32>
    %1830 = stablehlo.reduce(%1829 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %1831 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1832 = stablehlo.concatenate %c_15, %1831, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1833 = stablehlo.dynamic_broadcast_in_dim %1830, %1832, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1834 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1835 = stablehlo.concatenate %c_15, %1834, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1836 = stablehlo.dynamic_broadcast_in_dim %cst_13, %1835, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1837 = stablehlo.divide %1833, %1836 : tensor<2x?x1xf32>
    %1838 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1839 = stablehlo.concatenate %c_15, %1838, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1840 = stablehlo.dynamic_broadcast_in_dim %1837, %1839, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1841 = stablehlo.subtract %1829, %1840 : tensor<2x?x32xf32>
    %1842 = stablehlo.multiply %1841, %1841 : tensor<2x?x32xf32>
    %1843 = stablehlo.reduce(%1842 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %1844 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1845 = stablehlo.concatenate %c_15, %1844, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1846 = stablehlo.dynamic_broadcast_in_dim %1843, %1845, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1847 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1848 = stablehlo.concatenate %c_15, %1847, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1849 = stablehlo.dynamic_broadcast_in_dim %cst_13, %1848, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1850 = stablehlo.divide %1846, %1849 : tensor<2x?x1xf32>
    %1851 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1852 = stablehlo.concatenate %c_15, %1851, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1853 = stablehlo.dynamic_broadcast_in_dim %1837, %1852, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1854 = stablehlo.subtract %1829, %1853 : tensor<2x?x32xf32>
    %1855 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1856 = stablehlo.concatenate %c_15, %1855, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1857 = stablehlo.dynamic_broadcast_in_dim %cst_11, %1856, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1858 = stablehlo.add %1850, %1857 : tensor<2x?x1xf32>
    %1859 = stablehlo.rsqrt %1858 : tensor<2x?x1xf32>
    %1860 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1861 = stablehlo.concatenate %c_15, %1860, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1862 = stablehlo.dynamic_broadcast_in_dim %1859, %1861, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1863 = stablehlo.multiply %1854, %1862 : tensor<2x?x32xf32>
    %1864 = stablehlo.broadcast_in_dim %arg83, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %1865 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1866 = stablehlo.concatenate %c_15, %1865, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1867 = stablehlo.dynamic_broadcast_in_dim %1864, %1866, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1868 = stablehlo.multiply %1863, %1867 : tensor<2x?x32xf32>
    %1869 = stablehlo.broadcast_in_dim %arg82, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %1870 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1871 = stablehlo.concatenate %c_15, %1870, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1872 = stablehlo.dynamic_broadcast_in_dim %1869, %1871, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1873 = stablehlo.add %1868, %1872 : tensor<2x?x32xf32>
    %1874 = stablehlo.dot_general %1873, %arg87, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x96xf32>) -> tensor<2x?x96xf32>
    %1875 = stablehlo.concatenate %c_10, %c_10, %c_10, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1876 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1877 = stablehlo.concatenate %c_15, %1876, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1878 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1879 = stablehlo.real_dynamic_slice %1874, %1875, %1877, %1878 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1880 = stablehlo.concatenate %c_10, %c_10, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1881 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1882 = stablehlo.concatenate %c_15, %1881, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1883 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1884 = stablehlo.real_dynamic_slice %1874, %1880, %1882, %1883 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1885 = stablehlo.concatenate %c_10, %c_10, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1886 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1887 = stablehlo.concatenate %c_15, %1886, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1888 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1889 = stablehlo.real_dynamic_slice %1874, %1885, %1887, %1888 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1890 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1891 = stablehlo.concatenate %c_15, %1890, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1892 = stablehlo.dynamic_reshape %1879, %1891 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %1893 = stablehlo.transpose %1892, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %1894 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1895 = stablehlo.concatenate %c_15, %1894, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1896 = stablehlo.dynamic_reshape %1884, %1895 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %1897 = stablehlo.transpose %1896, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %1898 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1899 = stablehlo.concatenate %c_15, %1898, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1900 = stablehlo.dynamic_reshape %1889, %1899 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %1901 = stablehlo.transpose %1900, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %1902 = stablehlo.transpose %1897, dims = [0, 1, 3, 2] : (tensor<2x4x?x8xf32>) -> tensor<2x4x8x?xf32>
    %1903 = stablehlo.dot_general %1893, %1902, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x4x?x8xf32>, tensor<2x4x8x?xf32>) -> tensor<2x4x?x?xf32>
    %1904 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1905 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1906 = stablehlo.concatenate %c_15, %c_7, %1904, %1905, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1907 = stablehlo.dynamic_broadcast_in_dim %cst_5, %1906, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %1908 = stablehlo.divide %1903, %1907 : tensor<2x4x?x?xf32>
    %1909 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1910 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1911 = stablehlo.concatenate %1909, %1910, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %1912 = stablehlo.dynamic_broadcast_in_dim %c, %1911, dims = [] : (tensor<i1>, tensor<2xi32>) -> tensor<?x?xi1>
    %1913 = call @tril(%arg0, %1912) : (tensor<i32>, tensor<?x?xi1>) -> tensor<?x?xi1>
    %1914 = call @_where(%arg0, %1913, %1908, %cst_4) : (tensor<i32>, tensor<?x?xi1>, tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?x?xf32>
    %1915 = stablehlo.reduce(%1914 init: %cst_3) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?xf32>
    %1916 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1917 = stablehlo.concatenate %c_15, %c_7, %1916, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1918 = stablehlo.dynamic_broadcast_in_dim %cst_3, %1917, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x4x?xf32>
    %1919 = stablehlo.maximum %1918, %1915 : tensor<2x4x?xf32>
    %1920 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1921 = stablehlo.concatenate %c_15, %c_7, %1920, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1922 = stablehlo.dynamic_broadcast_in_dim %1919, %1921, dims = [0, 1, 2] : (tensor<2x4x?xf32>, tensor<4xi32>) -> tensor<2x4x?x1xf32>
    %1923 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1924 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1925 = stablehlo.concatenate %c_15, %c_7, %1923, %1924, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1926 = stablehlo.dynamic_broadcast_in_dim %1922, %1925, dims = [0, 1, 2, 3] : (tensor<2x4x?x1xf32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %1927 = stablehlo.subtract %1914, %1926 : tensor<2x4x?x?xf32>
    %1928 = stablehlo.exponential %1927 : tensor<2x4x?x?xf32>
    %1929 = stablehlo.reduce(%1928 init: %cst_16) applies stablehlo.add across dimensions = [3] : (tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?xf32>
    %1930 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1931 = stablehlo.concatenate %c_15, %c_7, %1930, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1932 = stablehlo.dynamic_broadcast_in_dim %1929, %1931, dims = [0, 1, 2] : (tensor<2x4x?xf32>, tensor<4xi32>) -> tensor<2x4x?x1xf32>
    %1933 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1934 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1935 = stablehlo.concatenate %c_15, %c_7, %1933, %1934, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %1936 = stablehlo.dynamic_broadcast_in_dim %1932, %1935, dims = [0, 1, 2, 3] : (tensor<2x4x?x1xf32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %1937 = stablehlo.divide %1928, %1936 : tensor<2x4x?x?xf32>
    %1938 = stablehlo.dot_general %1937, %1901, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x4x?x?xf32>, tensor<2x4x?x8xf32>) -> tensor<2x4x?x8xf32>
    %1939 = stablehlo.transpose %1938, dims = [0, 2, 1, 3] : (tensor<2x4x?x8xf32>) -> tensor<2x?x4x8xf32>
    %1940 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1941 = stablehlo.concatenate %c_15, %1940, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1942 = stablehlo.dynamic_reshape %1939, %1941 : (tensor<2x?x4x8xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1943 = stablehlo.dot_general %1942, %arg86, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x32xf32>) -> tensor<2x?x32xf32>
    %1944 = stablehlo.add %1829, %1943 : tensor<2x?x32xf32>
    %1945 = stablehlo.reduce(%1944 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %1946 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1947 = stablehlo.concatenate %c_15, %1946, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1948 = stablehlo.dynamic_broadcast_in_dim %1945, %1947, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1949 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1950 = stablehlo.concatenate %c_15, %1949, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1951 = stablehlo.dynamic_broadcast_in_dim %cst_13, %1950, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1952 = stablehlo.divide %1948, %1951 : tensor<2x?x1xf32>
    %1953 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1954 = stablehlo.concatenate %c_15, %1953, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1955 = stablehlo.dynamic_broadcast_in_dim %1952, %1954, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1956 = stablehlo.subtract %1944, %1955 : tensor<2x?x32xf32>
    %1957 = stablehlo.multiply %1956, %1956 : tensor<2x?x32xf32>
    %1958 = stablehlo.reduce(%1957 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %1959 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1960 = stablehlo.concatenate %c_15, %1959, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1961 = stablehlo.dynamic_broadcast_in_dim %1958, %1960, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1962 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1963 = stablehlo.concatenate %c_15, %1962, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1964 = stablehlo.dynamic_broadcast_in_dim %cst_13, %1963, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1965 = stablehlo.divide %1961, %1964 : tensor<2x?x1xf32>
    %1966 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1967 = stablehlo.concatenate %c_15, %1966, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1968 = stablehlo.dynamic_broadcast_in_dim %1952, %1967, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1969 = stablehlo.subtract %1944, %1968 : tensor<2x?x32xf32>
    %1970 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1971 = stablehlo.concatenate %c_15, %1970, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1972 = stablehlo.dynamic_broadcast_in_dim %cst_11, %1971, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %1973 = stablehlo.add %1965, %1972 : tensor<2x?x1xf32>
    %1974 = stablehlo.rsqrt %1973 : tensor<2x?x1xf32>
    %1975 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1976 = stablehlo.concatenate %c_15, %1975, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1977 = stablehlo.dynamic_broadcast_in_dim %1974, %1976, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1978 = stablehlo.multiply %1969, %1977 : tensor<2x?x32xf32>
    %1979 = stablehlo.broadcast_in_dim %arg85, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %1980 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1981 = stablehlo.concatenate %c_15, %1980, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1982 = stablehlo.dynamic_broadcast_in_dim %1979, %1981, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1983 = stablehlo.multiply %1978, %1982 : tensor<2x?x32xf32>
    %1984 = stablehlo.broadcast_in_dim %arg84, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %1985 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1986 = stablehlo.concatenate %c_15, %1985, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1987 = stablehlo.dynamic_broadcast_in_dim %1984, %1986, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %1988 = stablehlo.add %1983, %1987 : tensor<2x?x32xf32>
    %1989 = stablehlo.dot_general %1988, %arg88, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x64xf32>) -> tensor<2x?x64xf32>
    %1990 = stablehlo.multiply %1989, %1989 : tensor<2x?x64xf32>
    %1991 = stablehlo.multiply %1990, %1989 : tensor<2x?x64xf32>
    %1992 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1993 = stablehlo.concatenate %c_15, %1992, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1994 = stablehlo.dynamic_broadcast_in_dim %cst_2, %1993, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %1995 = stablehlo.multiply %1994, %1991 : tensor<2x?x64xf32>
    %1996 = stablehlo.add %1989, %1995 : tensor<2x?x64xf32>
    %1997 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1998 = stablehlo.concatenate %c_15, %1997, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %1999 = stablehlo.dynamic_broadcast_in_dim %cst_1, %1998, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %2000 = stablehlo.multiply %1999, %1996 : tensor<2x?x64xf32>
    %2001 = stablehlo.tanh %2000 : tensor<2x?x64xf32>
    %2002 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2003 = stablehlo.concatenate %c_15, %2002, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2004 = stablehlo.dynamic_broadcast_in_dim %cst_0, %2003, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %2005 = stablehlo.add %2004, %2001 : tensor<2x?x64xf32>
    %2006 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2007 = stablehlo.concatenate %c_15, %2006, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2008 = stablehlo.dynamic_broadcast_in_dim %cst, %2007, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %2009 = stablehlo.multiply %2008, %2005 : tensor<2x?x64xf32>
    %2010 = stablehlo.multiply %1989, %2009 : tensor<2x?x64xf32>
    %2011 = stablehlo.dot_general %2010, %arg81, contracting_dims = [2] x [0] : (tensor<2x?x64xf32>, tensor<64x32xf32>) -> tensor<2x?x32xf32>
    %2012 = stablehlo.add %1944, %2011 : tensor<2x?x32xf32>
    %2013 = stablehlo.reduce(%2012 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %2014 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2015 = stablehlo.concatenate %c_15, %2014, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2016 = stablehlo.dynamic_broadcast_in_dim %2013, %2015, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %2017 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2018 = stablehlo.concatenate %c_15, %2017, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2019 = stablehlo.dynamic_broadcast_in_dim %cst_13, %2018, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %2020 = stablehlo.divide %2016, %2019 : tensor<2x?x1xf32>
    %2021 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2022 = stablehlo.concatenate %c_15, %2021, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2023 = stablehlo.dynamic_broadcast_in_dim %2020, %2022, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %2024 = stablehlo.subtract %2012, %2023 : tensor<2x?x32xf32>
    %2025 = stablehlo.multiply %2024, %2024 : tensor<2x?x32xf32>
    %2026 = stablehlo.reduce(%2025 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %2027 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2028 = stablehlo.concatenate %c_15, %2027, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2029 = stablehlo.dynamic_broadcast_in_dim %2026, %2028, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %2030 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2031 = stablehlo.concatenate %c_15, %2030, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2032 = stablehlo.dynamic_broadcast_in_dim %cst_13, %2031, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %2033 = stablehlo.divide %2029, %2032 : tensor<2x?x1xf32>
    %2034 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2035 = stablehlo.concatenate %c_15, %2034, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2036 = stablehlo.dynamic_broadcast_in_dim %2020, %2035, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %2037 = stablehlo.subtract %2012, %2036 : tensor<2x?x32xf32>
    %2038 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2039 = stablehlo.concatenate %c_15, %2038, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2040 = stablehlo.dynamic_broadcast_in_dim %cst_11, %2039, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %2041 = stablehlo.add %2033, %2040 : tensor<2x?x1xf32>
    %2042 = stablehlo.rsqrt %2041 : tensor<2x?x1xf32>
    %2043 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2044 = stablehlo.concatenate %c_15, %2043, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2045 = stablehlo.dynamic_broadcast_in_dim %2042, %2044, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %2046 = stablehlo.multiply %2037, %2045 : tensor<2x?x32xf32>
    %2047 = stablehlo.broadcast_in_dim %arg91, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %2048 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2049 = stablehlo.concatenate %c_15, %2048, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2050 = stablehlo.dynamic_broadcast_in_dim %2047, %2049, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %2051 = stablehlo.multiply %2046, %2050 : tensor<2x?x32xf32>
    %2052 = stablehlo.broadcast_in_dim %arg90, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %2053 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2054 = stablehlo.concatenate %c_15, %2053, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2055 = stablehlo.dynamic_broadcast_in_dim %2052, %2054, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %2056 = stablehlo.add %2051, %2055 : tensor<2x?x32xf32>
    %2057 = stablehlo.dot_general %2056, %arg95, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x96xf32>) -> tensor<2x?x96xf32>
    %2058 = stablehlo.concatenate %c_10, %c_10, %c_10, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2059 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2060 = stablehlo.concatenate %c_15, %2059, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2061 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2062 = stablehlo.real_dynamic_slice %2057, %2058, %2060, %2061 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %2063 = stablehlo.concatenate %c_10, %c_10, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2064 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2065 = stablehlo.concatenate %c_15, %2064, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2066 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2067 = stablehlo.real_dynamic_slice %2057, %2063, %2065, %2066 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %2068 = stablehlo.concatenate %c_10, %c_10, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2069 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2070 = stablehlo.concatenate %c_15, %2069, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2071 = stablehlo.concatenate %c_14, %c_14, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2072 = stablehlo.real_dynamic_slice %2057, %2068, %2070, %2071 : (tensor<2x?x96xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %2073 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2074 = stablehlo.concatenate %c_15, %2073, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %2075 = stablehlo.dynamic_reshape %2062, %2074 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %2076 = stablehlo.transpose %2075, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %2077 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2078 = stablehlo.concatenate %c_15, %2077, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %2079 = stablehlo.dynamic_reshape %2067, %2078 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %2080 = stablehlo.transpose %2079, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %2081 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2082 = stablehlo.concatenate %c_15, %2081, %c_7, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %2083 = stablehlo.dynamic_reshape %2072, %2082 : (tensor<2x?x32xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %2084 = stablehlo.transpose %2083, dims = [0, 2, 1, 3] : (tensor<2x?x4x8xf32>) -> tensor<2x4x?x8xf32>
    %2085 = stablehlo.transpose %2080, dims = [0, 1, 3, 2] : (tensor<2x4x?x8xf32>) -> tensor<2x4x8x?xf32>
    %2086 = stablehlo.dot_general %2076, %2085, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x4x?x8xf32>, tensor<2x4x8x?xf32>) -> tensor<2x4x?x?xf32>
    %2087 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2088 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2089 = stablehlo.concatenate %c_15, %c_7, %2087, %2088, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %2090 = stablehlo.dynamic_broadcast_in_dim %cst_5, %2089, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %2091 = stablehlo.divide %2086, %2090 : tensor<2x4x?x?xf32>
    %2092 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2093 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2094 = stablehlo.concatenate %2092, %2093, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %2095 = stablehlo.dynamic_broadcast_in_dim %c, %2094, dims = [] : (tensor<i1>, tensor<2xi32>) -> tensor<?x?xi1>
    %2096 = call @tril(%arg0, %2095) : (tensor<i32>, tensor<?x?xi1>) -> tensor<?x?xi1>
    %2097 = call @_where(%arg0, %2096, %2091, %cst_4) : (tensor<i32>, tensor<?x?xi1>, tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?x?xf32>
    %2098 = stablehlo.reduce(%2097 init: %cst_3) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?xf32>
    %2099 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2100 = stablehlo.concatenate %c_15, %c_7, %2099, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2101 = stablehlo.dynamic_broadcast_in_dim %cst_3, %2100, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x4x?xf32>
    %2102 = stablehlo.maximum %2101, %2098 : tensor<2x4x?xf32>
    %2103 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2104 = stablehlo.concatenate %c_15, %c_7, %2103, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %2105 = stablehlo.dynamic_broadcast_in_dim %2102, %2104, dims = [0, 1, 2] : (tensor<2x4x?xf32>, tensor<4xi32>) -> tensor<2x4x?x1xf32>
    %2106 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2107 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2108 = stablehlo.concatenate %c_15, %c_7, %2106, %2107, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %2109 = stablehlo.dynamic_broadcast_in_dim %2105, %2108, dims = [0, 1, 2, 3] : (tensor<2x4x?x1xf32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %2110 = stablehlo.subtract %2097, %2109 : tensor<2x4x?x?xf32>
    %2111 = stablehlo.exponential %2110 : tensor<2x4x?x?xf32>
    %2112 = stablehlo.reduce(%2111 init: %cst_16) applies stablehlo.add across dimensions = [3] : (tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?xf32>
    %2113 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2114 = stablehlo.concatenate %c_15, %c_7, %2113, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %2115 = stablehlo.dynamic_broadcast_in_dim %2112, %2114, dims = [0, 1, 2] : (tensor<2x4x?xf32>, tensor<4xi32>) -> tensor<2x4x?x1xf32>
    %2116 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2117 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2118 = stablehlo.concatenate %c_15, %c_7, %2116, %2117, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %2119 = stablehlo.dynamic_broadcast_in_dim %2115, %2118, dims = [0, 1, 2, 3] : (tensor<2x4x?x1xf32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %2120 = stablehlo.divide %2111, %2119 : tensor<2x4x?x?xf32>
    %2121 = stablehlo.dot_general %2120, %2084, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x4x?x?xf32>, tensor<2x4x?x8xf32>) -> tensor<2x4x?x8xf32>
    %2122 = stablehlo.transpose %2121, dims = [0, 2, 1, 3] : (tensor<2x4x?x8xf32>) -> tensor<2x?x4x8xf32>
    %2123 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2124 = stablehlo.concatenate %c_15, %2123, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2125 = stablehlo.dynamic_reshape %2122, %2124 : (tensor<2x?x4x8xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %2126 = stablehlo.dot_general %2125, %arg94, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x32xf32>) -> tensor<2x?x32xf32>
    %2127 = stablehlo.add %2012, %2126 : tensor<2x?x32xf32>
    %2128 = stablehlo.reduce(%2127 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %2129 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2130 = stablehlo.concatenate %c_15, %2129, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2131 = stablehlo.dynamic_broadcast_in_dim %2128, %2130, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %2132 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2133 = stablehlo.concatenate %c_15, %2132, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2134 = stablehlo.dynamic_broadcast_in_dim %cst_13, %2133, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %2135 = stablehlo.divide %2131, %2134 : tensor<2x?x1xf32>
    %2136 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2137 = stablehlo.concatenate %c_15, %2136, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2138 = stablehlo.dynamic_broadcast_in_dim %2135, %2137, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %2139 = stablehlo.subtract %2127, %2138 : tensor<2x?x32xf32>
    %2140 = stablehlo.multiply %2139, %2139 : tensor<2x?x32xf32>
    %2141 = stablehlo.reduce(%2140 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %2142 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2143 = stablehlo.concatenate %c_15, %2142, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2144 = stablehlo.dynamic_broadcast_in_dim %2141, %2143, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %2145 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2146 = stablehlo.concatenate %c_15, %2145, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2147 = stablehlo.dynamic_broadcast_in_dim %cst_13, %2146, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %2148 = stablehlo.divide %2144, %2147 : tensor<2x?x1xf32>
    %2149 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2150 = stablehlo.concatenate %c_15, %2149, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2151 = stablehlo.dynamic_broadcast_in_dim %2135, %2150, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %2152 = stablehlo.subtract %2127, %2151 : tensor<2x?x32xf32>
    %2153 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2154 = stablehlo.concatenate %c_15, %2153, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2155 = stablehlo.dynamic_broadcast_in_dim %cst_11, %2154, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %2156 = stablehlo.add %2148, %2155 : tensor<2x?x1xf32>
    %2157 = stablehlo.rsqrt %2156 : tensor<2x?x1xf32>
    %2158 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2159 = stablehlo.concatenate %c_15, %2158, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2160 = stablehlo.dynamic_broadcast_in_dim %2157, %2159, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %2161 = stablehlo.multiply %2152, %2160 : tensor<2x?x32xf32>
    %2162 = stablehlo.broadcast_in_dim %arg93, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %2163 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2164 = stablehlo.concatenate %c_15, %2163, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2165 = stablehlo.dynamic_broadcast_in_dim %2162, %2164, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %2166 = stablehlo.multiply %2161, %2165 : tensor<2x?x32xf32>
    %2167 = stablehlo.broadcast_in_dim %arg92, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %2168 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2169 = stablehlo.concatenate %c_15, %2168, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2170 = stablehlo.dynamic_broadcast_in_dim %2167, %2169, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %2171 = stablehlo.add %2166, %2170 : tensor<2x?x32xf32>
    %2172 = stablehlo.dot_general %2171, %arg96, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x64xf32>) -> tensor<2x?x64xf32>
    %2173 = stablehlo.multiply %2172, %2172 : tensor<2x?x64xf32>
    %2174 = stablehlo.multiply %2173, %2172 : tensor<2x?x64xf32>
    %2175 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2176 = stablehlo.concatenate %c_15, %2175, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2177 = stablehlo.dynamic_broadcast_in_dim %cst_2, %2176, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %2178 = stablehlo.multiply %2177, %2174 : tensor<2x?x64xf32>
    %2179 = stablehlo.add %2172, %2178 : tensor<2x?x64xf32>
    %2180 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2181 = stablehlo.concatenate %c_15, %2180, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2182 = stablehlo.dynamic_broadcast_in_dim %cst_1, %2181, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %2183 = stablehlo.multiply %2182, %2179 : tensor<2x?x64xf32>
    %2184 = stablehlo.tanh %2183 : tensor<2x?x64xf32>
    %2185 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2186 = stablehlo.concatenate %c_15, %2185, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2187 = stablehlo.dynamic_broadcast_in_dim %cst_0, %2186, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %2188 = stablehlo.add %2187, %2184 : tensor<2x?x64xf32>
    %2189 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2190 = stablehlo.concatenate %c_15, %2189, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2191 = stablehlo.dynamic_broadcast_in_dim %cst, %2190, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %2192 = stablehlo.multiply %2191, %2188 : tensor<2x?x64xf32>
    %2193 = stablehlo.multiply %2172, %2192 : tensor<2x?x64xf32>
    %2194 = stablehlo.dot_general %2193, %arg89, contracting_dims = [2] x [0] : (tensor<2x?x64xf32>, tensor<64x32xf32>) -> tensor<2x?x32xf32>
    %2195 = stablehlo.add %2127, %2194 : tensor<2x?x32xf32>
    return %2195 : tensor<2x?x32xf32>
  }
  func.func private @tril(%arg0: tensor<i32> {jax.global_constant = "t"}, %arg1: tensor<?x?xi1>) -> tensor<?x?xi1> {
    %c = stablehlo.constant dense<false> : tensor<i1>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2 = stablehlo.concatenate %0, %1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %3 = stablehlo.dynamic_iota %2, dim = 0 : (tensor<2xi32>) -> tensor<?x?xi32>
    %4 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %5 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %6 = stablehlo.concatenate %4, %5, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %7 = stablehlo.dynamic_broadcast_in_dim %c_0, %6, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x?xi32>
    %8 = stablehlo.add %3, %7 : tensor<?x?xi32>
    %9 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %10 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %11 = stablehlo.concatenate %9, %10, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %12 = stablehlo.dynamic_iota %11, dim = 1 : (tensor<2xi32>) -> tensor<?x?xi32>
    %13 = stablehlo.compare GE, %8, %12, SIGNED : (tensor<?x?xi32>, tensor<?x?xi32>) -> tensor<?x?xi1>
    %14 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %15 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %16 = stablehlo.concatenate %14, %15, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %17 = stablehlo.dynamic_broadcast_in_dim %c, %16, dims = [] : (tensor<i1>, tensor<2xi32>) -> tensor<?x?xi1>
    %18 = stablehlo.select %13, %arg1, %17 : tensor<?x?xi1>, tensor<?x?xi1>
    return %18 : tensor<?x?xi1>
  }
  func.func private @_where(%arg0: tensor<i32> {jax.global_constant = "t"}, %arg1: tensor<?x?xi1>, %arg2: tensor<2x4x?x?xf32>, %arg3: tensor<f32>) -> tensor<2x4x?x?xf32> {
    %c = stablehlo.constant dense<4> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<2> : tensor<1xi32>
    %0 = stablehlo.convert %arg3 : tensor<f32>
    %1 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %3 = stablehlo.concatenate %c_0, %c, %1, %2, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %4 = stablehlo.dynamic_broadcast_in_dim %arg1, %3, dims = [2, 3] : (tensor<?x?xi1>, tensor<4xi32>) -> tensor<2x4x?x?xi1>
    %5 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %6 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %7 = stablehlo.concatenate %c_0, %c, %5, %6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %8 = stablehlo.dynamic_broadcast_in_dim %0, %7, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %9 = stablehlo.select %4, %arg2, %8 : tensor<2x4x?x?xi1>, tensor<2x4x?x?xf32>
    return %9 : tensor<2x4x?x?xf32>
  }
}
