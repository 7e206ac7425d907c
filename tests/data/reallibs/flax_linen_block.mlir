module @jit_apply attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32xf32>, %arg1: tensor<64x32xf32>, %arg2: tensor<64xf32>, %arg3: tensor<32x64xf32>, %arg4: tensor<32xf32>, %arg5: tensor<32xf32>, %arg6: tensor<32xf32>, %arg7: tensor<32xf32>, %arg8: tensor<4x8xf32>, %arg9: tensor<32x4x8xf32>, %arg10: tensor<32xf32>, %arg11: tensor<4x8x32xf32>, %arg12: tensor<4x8xf32>, %arg13: tensor<32x4x8xf32>, %arg14: tensor<4x8xf32>, %arg15: tensor<32x4x8xf32>, %arg16: tensor<2x?x32xf32>) -> (tensor<2x?x32xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<64> : tensor<i32>
    %c_1 = stablehlo.constant dense<-1> : tensor<i32>
    %c_2 = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg16, dim = 1 : (tensor<2x?x32xf32>) -> tensor<i32>
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
    %9 = call @_wrapped_jax_export_main(%0, %arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8, %arg9, %arg10, %arg11, %arg12, %arg13, %arg14, %arg15, %arg16) : (tensor<i32>, tensor<32xf32>, tensor<64x32xf32>, tensor<64xf32>, tensor<32x64xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<4x8xf32>, tensor<32x4x8xf32>, tensor<32xf32>, tensor<4x8x32xf32>, tensor<4x8xf32>, tensor<32x4x8xf32>, tensor<4x8xf32>, tensor<32x4x8xf32>, tensor<2x?x32xf32>) -> tensor<2x?x32xf32>
    return %9 : tensor<2x?x32xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "t"}, %arg1: tensor<32xf32>, %arg2: tensor<64x32xf32>, %arg3: tensor<64xf32>, %arg4: tensor<32x64xf32>, %arg5: tensor<32xf32>, %arg6: tensor<32xf32>, %arg7: tensor<32xf32>, %arg8: tensor<32xf32>, %arg9: tensor<4x8xf32>, %arg10: tensor<32x4x8xf32>, %arg11: tensor<32xf32>, %arg12: tensor<4x8x32xf32>, %arg13: tensor<4x8xf32>, %arg14: tensor<32x4x8xf32>, %arg15: tensor<4x8xf32>, %arg16: tensor<32x4x8xf32>, %arg17: tensor<2x?x32xf32>) -> (tensor<2x?x32xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %cst_0 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %cst_1 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %c = stablehlo.constant dense<64> : tensor<1xi32>
    %cst_2 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_3 = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %cst_4 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %c_5 = stablehlo.constant dense<8> : tensor<1xi32>
    %c_6 = stablehlo.constant dense<4> : tensor<1xi32>
    %cst_7 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %c_8 = stablehlo.constant dense<32> : tensor<1xi32>
    %cst_9 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c_11 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_12 = stablehlo.constant dense<0> : tensor<i32>
    %c_13 = stablehlo.constant dense<1> : tensor<i32>
    %cst_14 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %c_15 = stablehlo.constant dense<2> : tensor<1xi32>
    %0 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.dynamic_iota %0, dim = 0 : (tensor<1xi32>) -> tensor<?xi32>
    %2 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %3 = stablehlo.dynamic_broadcast_in_dim %c_13, %2, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %4 = stablehlo.multiply %3, %1 : tensor<?xi32>
    %5 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %6 = stablehlo.dynamic_broadcast_in_dim %c_12, %5, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %7 = stablehlo.add %6, %4 : tensor<?xi32>
    %8 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %9 = stablehlo.concatenate %c_15, %8, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %10 = stablehlo.dynamic_broadcast_in_dim %7, %9, dims = [1] : (tensor<?xi32>, tensor<2xi32>) -> tensor<2x?xi32>
    %11 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %12 = stablehlo.concatenate %c_15, %11, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %13 = stablehlo.dynamic_broadcast_in_dim %10, %12, dims = [0, 1] : (tensor<2x?xi32>, tensor<3xi32>) -> tensor<2x?x1xi32>
    %14 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %15 = stablehlo.concatenate %c_15, %c_11, %14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %16 = stablehlo.dynamic_broadcast_in_dim %10, %15, dims = [0, 2] : (tensor<2x?xi32>, tensor<3xi32>) -> tensor<2x1x?xi32>
    %17 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %18 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %19 = stablehlo.concatenate %c_15, %17, %18, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %20 = stablehlo.dynamic_broadcast_in_dim %13, %19, dims = [0, 1, 2] : (tensor<2x?x1xi32>, tensor<3xi32>) -> tensor<2x?x?xi32>
    %21 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %22 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %23 = stablehlo.concatenate %c_15, %21, %22, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %24 = stablehlo.dynamic_broadcast_in_dim %16, %23, dims = [0, 1, 2] : (tensor<2x1x?xi32>, tensor<3xi32>) -> tensor<2x?x?xi32>
    %25 = stablehlo.compare GE, %20, %24, SIGNED : (tensor<2x?x?xi32>, tensor<2x?x?xi32>) -> tensor<2x?x?xi1>
    %26 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %27 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %28 = stablehlo.concatenate %c_15, %c_11, %26, %27, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %29 = stablehlo.dynamic_broadcast_in_dim %25, %28, dims = [0, 2, 3] : (tensor<2x?x?xi1>, tensor<4xi32>) -> tensor<2x1x?x?xi1>
    %30 = stablehlo.convert %29 : (tensor<2x1x?x?xi1>) -> tensor<2x1x?x?xf32>
    %31 = stablehlo.multiply %arg17, %arg17 : tensor<2x?x32xf32>
    %32 = stablehlo.reduce(%arg17 init: %cst_10) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %33 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %34 = stablehlo.concatenate %c_15, %33, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %35 = stablehlo.dynamic_broadcast_in_dim %cst_9, %34, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<2x?xf32>
    %36 = stablehlo.divide %32, %35 : tensor<2x?xf32>
    %37 = stablehlo.reduce(%31 init: %cst_10) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %38 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %39 = stablehlo.concatenate %c_15, %38, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %40 = stablehlo.dynamic_broadcast_in_dim %cst_9, %39, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<2x?xf32>
    %41 = stablehlo.divide %37, %40 : tensor<2x?xf32>
    %42 = stablehlo.multiply %36, %36 : tensor<2x?xf32>
    %43 = stablehlo.subtract %41, %42 : tensor<2x?xf32>
    %44 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %45 = stablehlo.concatenate %c_15, %44, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %46 = stablehlo.dynamic_broadcast_in_dim %cst_10, %45, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<2x?xf32>
    %47 = stablehlo.maximum %46, %43 : tensor<2x?xf32>
    %48 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %49 = stablehlo.concatenate %c_15, %48, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %50 = stablehlo.dynamic_broadcast_in_dim %36, %49, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %51 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %52 = stablehlo.concatenate %c_15, %51, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %53 = stablehlo.dynamic_broadcast_in_dim %47, %52, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %54 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %55 = stablehlo.concatenate %c_15, %54, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %56 = stablehlo.dynamic_broadcast_in_dim %50, %55, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %57 = stablehlo.subtract %arg17, %56 : tensor<2x?x32xf32>
    %58 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %59 = stablehlo.concatenate %c_15, %58, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %60 = stablehlo.dynamic_broadcast_in_dim %cst_7, %59, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %61 = stablehlo.add %53, %60 : tensor<2x?x1xf32>
    %62 = stablehlo.rsqrt %61 : tensor<2x?x1xf32>
    %63 = stablehlo.reshape %arg6 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %64 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %65 = stablehlo.concatenate %c_15, %64, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %66 = stablehlo.dynamic_broadcast_in_dim %62, %65, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %67 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %68 = stablehlo.concatenate %c_15, %67, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %69 = stablehlo.dynamic_broadcast_in_dim %63, %68, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %70 = stablehlo.multiply %66, %69 : tensor<2x?x32xf32>
    %71 = stablehlo.multiply %57, %70 : tensor<2x?x32xf32>
    %72 = stablehlo.reshape %arg5 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %73 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %74 = stablehlo.concatenate %c_15, %73, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %75 = stablehlo.dynamic_broadcast_in_dim %72, %74, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %76 = stablehlo.add %71, %75 : tensor<2x?x32xf32>
    %77 = stablehlo.dot_general %76, %arg14, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x4x8xf32>) -> tensor<2x?x4x8xf32>
    %78 = stablehlo.reshape %arg13 : (tensor<4x8xf32>) -> tensor<1x1x4x8xf32>
    %79 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %80 = stablehlo.concatenate %c_15, %79, %c_6, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %81 = stablehlo.dynamic_broadcast_in_dim %78, %80, dims = [0, 1, 2, 3] : (tensor<1x1x4x8xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %82 = stablehlo.add %77, %81 : tensor<2x?x4x8xf32>
    %83 = stablehlo.dot_general %76, %arg10, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x4x8xf32>) -> tensor<2x?x4x8xf32>
    %84 = stablehlo.reshape %arg9 : (tensor<4x8xf32>) -> tensor<1x1x4x8xf32>
    %85 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %86 = stablehlo.concatenate %c_15, %85, %c_6, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %87 = stablehlo.dynamic_broadcast_in_dim %84, %86, dims = [0, 1, 2, 3] : (tensor<1x1x4x8xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %88 = stablehlo.add %83, %87 : tensor<2x?x4x8xf32>
    %89 = stablehlo.dot_general %76, %arg16, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x4x8xf32>) -> tensor<2x?x4x8xf32>
    %90 = stablehlo.reshape %arg15 : (tensor<4x8xf32>) -> tensor<1x1x4x8xf32>
    %91 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %92 = stablehlo.concatenate %c_15, %91, %c_6, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %93 = stablehlo.dynamic_broadcast_in_dim %90, %92, dims = [0, 1, 2, 3] : (tensor<1x1x4x8xf32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %94 = stablehlo.add %89, %93 : tensor<2x?x4x8xf32>
    %95 = stablehlo.sqrt %cst_4 : tensor<f32>
    %96 = stablehlo.convert %95 : tensor<f32>
    %97 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %98 = stablehlo.concatenate %c_15, %97, %c_6, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %99 = stablehlo.dynamic_broadcast_in_dim %96, %98, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<2x?x4x8xf32>
    %100 = stablehlo.divide %82, %99 : tensor<2x?x4x8xf32>
    %101 = stablehlo.dot_general %100, %88, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3] : (tensor<2x?x4x8xf32>, tensor<2x?x4x8xf32>) -> tensor<2x4x?x?xf32>
    %102 = call @_where(%arg0, %30, %101, %cst_3) : (tensor<i32>, tensor<2x1x?x?xf32>, tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?x?xf32>
    %103 = stablehlo.reduce(%102 init: %cst_2) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?xf32>
    %104 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %105 = stablehlo.concatenate %c_15, %c_6, %104, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %106 = stablehlo.dynamic_broadcast_in_dim %cst_2, %105, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x4x?xf32>
    %107 = stablehlo.maximum %106, %103 : tensor<2x4x?xf32>
    %108 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %109 = stablehlo.concatenate %c_15, %c_6, %108, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %110 = stablehlo.dynamic_broadcast_in_dim %107, %109, dims = [0, 1, 2] : (tensor<2x4x?xf32>, tensor<4xi32>) -> tensor<2x4x?x1xf32>
    %111 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %112 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %113 = stablehlo.concatenate %c_15, %c_6, %111, %112, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %114 = stablehlo.dynamic_broadcast_in_dim %110, %113, dims = [0, 1, 2, 3] : (tensor<2x4x?x1xf32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %115 = stablehlo.subtract %102, %114 : tensor<2x4x?x?xf32>
    %116 = stablehlo.exponential %115 : tensor<2x4x?x?xf32>
    %117 = stablehlo.reduce(%116 init: %cst_10) applies stablehlo.add across dimensions = [3] : (tensor<2x4x?x?xf32>, tensor<f32>) -> tensor<2x4x?xf32>
    %118 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %119 = stablehlo.concatenate %c_15, %c_6, %118, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %120 = stablehlo.dynamic_broadcast_in_dim %117, %119, dims = [0, 1, 2] : (tensor<2x4x?xf32>, tensor<4xi32>) -> tensor<2x4x?x1xf32>
    %121 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %122 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %123 = stablehlo.concatenate %c_15, %c_6, %121, %122, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %124 = stablehlo.dynamic_broadcast_in_dim %120, %123, dims = [0, 1, 2, 3] : (tensor<2x4x?x1xf32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %125 = stablehlo.divide %116, %124 : tensor<2x4x?x?xf32>
    %126 = stablehlo.dot_general %94, %125, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3] : (tensor<2x?x4x8xf32>, tensor<2x4x?x?xf32>) -> tensor<2x4x8x?xf32>
    %127 = stablehlo.transpose %126, dims = [0, 3, 1, 2] : (tensor<2x4x8x?xf32>) -> tensor<2x?x4x8xf32>
    %128 = stablehlo.dot_general %127, %arg12, contracting_dims = [2, 3] x [0, 1] : (tensor<2x?x4x8xf32>, tensor<4x8x32xf32>) -> tensor<2x?x32xf32>
    %129 = stablehlo.reshape %arg11 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %130 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %131 = stablehlo.concatenate %c_15, %130, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %132 = stablehlo.dynamic_broadcast_in_dim %129, %131, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %133 = stablehlo.add %128, %132 : tensor<2x?x32xf32>
    %134 = stablehlo.add %arg17, %133 : tensor<2x?x32xf32>
    %135 = stablehlo.multiply %134, %134 : tensor<2x?x32xf32>
    %136 = stablehlo.reduce(%134 init: %cst_10) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %137 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %138 = stablehlo.concatenate %c_15, %137, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %139 = stablehlo.dynamic_broadcast_in_dim %cst_9, %138, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<2x?xf32>
    %140 = stablehlo.divide %136, %139 : tensor<2x?xf32>
    %141 = stablehlo.reduce(%135 init: %cst_10) applies stablehlo.add across dimensions = [2] : (tensor<2x?x32xf32>, tensor<f32>) -> tensor<2x?xf32>
    %142 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %143 = stablehlo.concatenate %c_15, %142, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %144 = stablehlo.dynamic_broadcast_in_dim %cst_9, %143, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<2x?xf32>
    %145 = stablehlo.divide %141, %144 : tensor<2x?xf32>
    %146 = stablehlo.multiply %140, %140 : tensor<2x?xf32>
    %147 = stablehlo.subtract %145, %146 : tensor<2x?xf32>
    %148 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %149 = stablehlo.concatenate %c_15, %148, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %150 = stablehlo.dynamic_broadcast_in_dim %cst_10, %149, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<2x?xf32>
    %151 = stablehlo.maximum %150, %147 : tensor<2x?xf32>
    %152 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %153 = stablehlo.concatenate %c_15, %152, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %154 = stablehlo.dynamic_broadcast_in_dim %140, %153, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %155 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %156 = stablehlo.concatenate %c_15, %155, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %157 = stablehlo.dynamic_broadcast_in_dim %151, %156, dims = [0, 1] : (tensor<2x?xf32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %158 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %159 = stablehlo.concatenate %c_15, %158, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %160 = stablehlo.dynamic_broadcast_in_dim %154, %159, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %161 = stablehlo.subtract %134, %160 : tensor<2x?x32xf32>
    %162 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %163 = stablehlo.concatenate %c_15, %162, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %164 = stablehlo.dynamic_broadcast_in_dim %cst_7, %163, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x1xf32>
    %165 = stablehlo.add %157, %164 : tensor<2x?x1xf32>
    %166 = stablehlo.rsqrt %165 : tensor<2x?x1xf32>
    %167 = stablehlo.reshape %arg8 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %168 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %169 = stablehlo.concatenate %c_15, %168, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %170 = stablehlo.dynamic_broadcast_in_dim %166, %169, dims = [0, 1, 2] : (tensor<2x?x1xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %171 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %172 = stablehlo.concatenate %c_15, %171, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %173 = stablehlo.dynamic_broadcast_in_dim %167, %172, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %174 = stablehlo.multiply %170, %173 : tensor<2x?x32xf32>
    %175 = stablehlo.multiply %161, %174 : tensor<2x?x32xf32>
    %176 = stablehlo.reshape %arg7 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %177 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %178 = stablehlo.concatenate %c_15, %177, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %179 = stablehlo.dynamic_broadcast_in_dim %176, %178, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %180 = stablehlo.add %175, %179 : tensor<2x?x32xf32>
    %181 = stablehlo.dot_general %180, %arg4, contracting_dims = [2] x [0] : (tensor<2x?x32xf32>, tensor<32x64xf32>) -> tensor<2x?x64xf32>
    %182 = stablehlo.reshape %arg3 : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %183 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %184 = stablehlo.concatenate %c_15, %183, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %185 = stablehlo.dynamic_broadcast_in_dim %182, %184, dims = [0, 1, 2] : (tensor<1x1x64xf32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %186 = stablehlo.add %181, %185 : tensor<2x?x64xf32>
    %187 = stablehlo.multiply %186, %186 : tensor<2x?x64xf32>
    %188 = stablehlo.multiply %187, %186 : tensor<2x?x64xf32>
    %189 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %190 = stablehlo.concatenate %c_15, %189, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %191 = stablehlo.dynamic_broadcast_in_dim %cst_1, %190, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %192 = stablehlo.multiply %191, %188 : tensor<2x?x64xf32>
    %193 = stablehlo.add %186, %192 : tensor<2x?x64xf32>
    %194 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %195 = stablehlo.concatenate %c_15, %194, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %196 = stablehlo.dynamic_broadcast_in_dim %cst_0, %195, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %197 = stablehlo.multiply %196, %193 : tensor<2x?x64xf32>
    %198 = stablehlo.tanh %197 : tensor<2x?x64xf32>
    %199 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %200 = stablehlo.concatenate %c_15, %199, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %201 = stablehlo.dynamic_broadcast_in_dim %cst_14, %200, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %202 = stablehlo.add %201, %198 : tensor<2x?x64xf32>
    %203 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %204 = stablehlo.concatenate %c_15, %203, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %205 = stablehlo.dynamic_broadcast_in_dim %cst, %204, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x64xf32>
    %206 = stablehlo.multiply %205, %202 : tensor<2x?x64xf32>
    %207 = stablehlo.multiply %186, %206 : tensor<2x?x64xf32>
    %208 = stablehlo.dot_general %207, %arg2, contracting_dims = [2] x [0] : (tensor<2x?x64xf32>, tensor<64x32xf32>) -> tensor<2x?x32xf32>
    %209 = stablehlo.reshape %arg1 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %210 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %211 = stablehlo.concatenate %c_15, %210, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %212 = stablehlo.dynamic_broadcast_in_dim %209, %211, dims = [0, 1, 2] : (tensor<1x1x32xf32>, tensor<3xi32>) -> tensor<2x?x32xf32>
    %213 = stablehlo.add %208, %212 : tensor<2x?x32xf32>
    %214 = stablehlo.add %134, %213 : tensor<2x?x32xf32>
    return %214 : tensor<2x?x32xf32>
  }
  func.func private @_where(%arg0: tensor<i32> {jax.global_constant = "t"}, %arg1: tensor<2x1x?x?xf32>, %arg2: tensor<2x4x?x?xf32>, %arg3: tensor<f32>) -> tensor<2x4x?x?xf32> {
    %c = stablehlo.constant dense<4> : tensor<1xi32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c_0 = stablehlo.constant dense<2> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<1> : tensor<1xi32>
    %0 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2 = stablehlo.concatenate %c_0, %c_1, %0, %1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %3 = stablehlo.dynamic_broadcast_in_dim %cst, %2, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<2x1x?x?xf32>
    %4 = stablehlo.compare NE, %arg1, %3, FLOAT : (tensor<2x1x?x?xf32>, tensor<2x1x?x?xf32>) -> tensor<2x1x?x?xi1>
    %5 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %6 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %7 = stablehlo.concatenate %c_0, %c, %5, %6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %8 = stablehlo.dynamic_broadcast_in_dim %4, %7, dims = [0, 1, 2, 3] : (tensor<2x1x?x?xi1>, tensor<4xi32>) -> tensor<2x4x?x?xi1>
    %9 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %10 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %11 = stablehlo.concatenate %c_0, %c, %9, %10, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %12 = stablehlo.dynamic_broadcast_in_dim %arg3, %11, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<2x4x?x?xf32>
    %13 = stablehlo.select %8, %arg2, %12 : tensor<2x4x?x?xi1>, tensor<2x4x?x?xf32>
    return %13 : tensor<2x4x?x?xf32>
  }
}
