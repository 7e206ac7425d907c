module @jit_step attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32xf32>, %arg1: tensor<4xf32>, %arg2: tensor<16x32xf32>, %arg3: tensor<32x4xf32>, %arg4: tensor<i32>, %arg5: tensor<32xf32>, %arg6: tensor<4xf32>, %arg7: tensor<16x32xf32>, %arg8: tensor<32x4xf32>, %arg9: tensor<32xf32>, %arg10: tensor<4xf32>, %arg11: tensor<16x32xf32>, %arg12: tensor<32x4xf32>, %arg13: tensor<?x16xf32>, %arg14: tensor<?x4xf32>) -> (tensor<32xf32> {jax.result_info = "result[0]['b1']"}, tensor<4xf32> {jax.result_info = "result[0]['b2']"}, tensor<16x32xf32> {jax.result_info = "result[0]['w1']"}, tensor<32x4xf32> {jax.result_info = "result[0]['w2']"}, tensor<i32> {jax.result_info = "result[1][0].count"}, tensor<32xf32> {jax.result_info = "result[1][0].mu['b1']"}, tensor<4xf32> {jax.result_info = "result[1][0].mu['b2']"}, tensor<16x32xf32> {jax.result_info = "result[1][0].mu['w1']"}, tensor<32x4xf32> {jax.result_info = "result[1][0].mu['w2']"}, tensor<32xf32> {jax.result_info = "result[1][0].nu['b1']"}, tensor<4xf32> {jax.result_info = "result[1][0].nu['b2']"}, tensor<16x32xf32> {jax.result_info = "result[1][0].nu['w1']"}, tensor<32x4xf32> {jax.result_info = "result[1][0].nu['w2']"}, tensor<f32> {jax.result_info = "result[2]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<32> : tensor<i32>
    %c_1 = stablehlo.constant dense<-1> : tensor<i32>
    %c_2 = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg13, dim = 0 : (tensor<?x16xf32>) -> tensor<i32>
    %1 = stablehlo.get_dimension_size %arg14, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
    %2 = stablehlo.compare GE, %0, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%2, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[2].shape = (b, 16),args[3].shape = (b, 4). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[2].shape[0] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %3 = stablehlo.compare EQ, %1, %0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%3, %1, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Found inconsistency between dimension size args[3].shape[0] (= {0}) and the specification 'b' (= {1}). Using the following polymorphic shapes specifications: args[2].shape = (b, 16),args[3].shape = (b, 4). Obtained dimension variables: 'b' = {1} from specification 'b' for dimension args[2].shape[0] (= {1}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>) -> ()
    %4 = stablehlo.convert %0 : tensor<i32>
    %5 = stablehlo.multiply %4, %c_1 : tensor<i32>
    %6 = stablehlo.add %5, %c_0 : tensor<i32>
    %7 = stablehlo.compare GE, %6, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %8 = stablehlo.convert %0 : tensor<i32>
    %9 = stablehlo.multiply %8, %c_1 : tensor<i32>
    %10 = stablehlo.add %9, %c_0 : tensor<i32>
    stablehlo.custom_call @shape_assertion(%7, %10, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the symbolic shape constraint b <= 32. Expected '- b + 32' to be greater or equal to 0, but found {0}.  Using the following polymorphic shapes specifications: args[2].shape = (b, 16),args[3].shape = (b, 4). Obtained dimension variables: 'b' = {1} from specification 'b' for dimension args[2].shape[0] (= {1}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>) -> ()
    %11:14 = call @_wrapped_jax_export_main(%0, %arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8, %arg9, %arg10, %arg11, %arg12, %arg13, %arg14) : (tensor<i32>, tensor<32xf32>, tensor<4xf32>, tensor<16x32xf32>, tensor<32x4xf32>, tensor<i32>, tensor<32xf32>, tensor<4xf32>, tensor<16x32xf32>, tensor<32x4xf32>, tensor<32xf32>, tensor<4xf32>, tensor<16x32xf32>, tensor<32x4xf32>, tensor<?x16xf32>, tensor<?x4xf32>) -> (tensor<32xf32>, tensor<4xf32>, tensor<16x32xf32>, tensor<32x4xf32>, tensor<i32>, tensor<32xf32>, tensor<4xf32>, tensor<16x32xf32>, tensor<32x4xf32>, tensor<32xf32>, tensor<4xf32>, tensor<16x32xf32>, tensor<32x4xf32>, tensor<f32>)
    return %11#0, %11#1, %11#2, %11#3, %11#4, %11#5, %11#6, %11#7, %11#8, %11#9, %11#10, %11#11, %11#12, %11#13 : tensor<32xf32>, tensor<4xf32>, tensor<16x32xf32>, tensor<32x4xf32>, tensor<i32>, tensor<32xf32>, tensor<4xf32>, tensor<16x32xf32>, tensor<32x4xf32>, tensor<32xf32>, tensor<4xf32>, tensor<16x32xf32>, tensor<32x4xf32>, tensor<f32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<32xf32>, %arg2: tensor<4xf32>, %arg3: tensor<16x32xf32>, %arg4: tensor<32x4xf32>, %arg5: tensor<i32>, %arg6: tensor<32xf32>, %arg7: tensor<4xf32>, %arg8: tensor<16x32xf32>, %arg9: tensor<32x4xf32>, %arg10: tensor<32xf32>, %arg11: tensor<4xf32>, %arg12: tensor<16x32xf32>, %arg13: tensor<32x4xf32>, %arg14: tensor<?x16xf32>, %arg15: tensor<?x4xf32>) -> (tensor<32xf32> {jax.result_info = "result[0]['b1']"}, tensor<4xf32> {jax.result_info = "result[0]['b2']"}, tensor<16x32xf32> {jax.result_info = "result[0]['w1']"}, tensor<32x4xf32> {jax.result_info = "result[0]['w2']"}, tensor<i32> {jax.result_info = "result[1][0].count"}, tensor<32xf32> {jax.result_info = "result[1][0].mu['b1']"}, tensor<4xf32> {jax.result_info = "result[1][0].mu['b2']"}, tensor<16x32xf32> {jax.result_info = "result[1][0].mu['w1']"}, tensor<32x4xf32> {jax.result_info = "result[1][0].mu['w2']"}, tensor<32xf32> {jax.result_info = "result[1][0].nu['b1']"}, tensor<4xf32> {jax.result_info = "result[1][0].nu['b2']"}, tensor<16x32xf32> {jax.result_info = "result[1][0].nu['w1']"}, tensor<32x4xf32> {jax.result_info = "result[1][0].nu['w2']"}, tensor<f32> {jax.result_info = "result[2]"}) {
    %cst = stablehlo.constant dense<-0.00999999977> : tensor<f32>
    %cst_0 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %c = stablehlo.constant dense<1> : tensor<i32>
    %c_1 = stablehlo.constant dense<2147483647> : tensor<i32>
    %cst_2 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %cst_3 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %cst_4 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %cst_5 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_7 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %c_8 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_9 = stablehlo.constant dense<4> : tensor<i32>
    %cst_10 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %c_11 = stablehlo.constant dense<32> : tensor<1xi32>
    %0 = stablehlo.dot_general %arg14, %arg3, contracting_dims = [1] x [0] : (tensor<?x16xf32>, tensor<16x32xf32>) -> tensor<?x32xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %2 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %3 = stablehlo.concatenate %2, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %4 = stablehlo.dynamic_broadcast_in_dim %1, %3, dims = [0, 1] : (tensor<1x32xf32>, tensor<2xi32>) -> tensor<?x32xf32>
    %5 = stablehlo.add %0, %4 : tensor<?x32xf32>
    %6 = stablehlo.tanh %5 : tensor<?x32xf32>
    %7 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %8 = stablehlo.concatenate %7, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %9 = stablehlo.dynamic_broadcast_in_dim %cst_10, %8, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %10 = stablehlo.subtract %9, %6 : tensor<?x32xf32>
    %11 = stablehlo.dot_general %6, %arg4, contracting_dims = [1] x [0] : (tensor<?x32xf32>, tensor<32x4xf32>) -> tensor<?x4xf32>
    %12 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %13 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %14 = stablehlo.concatenate %13, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %15 = stablehlo.dynamic_broadcast_in_dim %12, %14, dims = [0, 1] : (tensor<1x4xf32>, tensor<2xi32>) -> tensor<?x4xf32>
    %16 = stablehlo.add %11, %15 : tensor<?x4xf32>
    %17 = stablehlo.subtract %16, %arg15 : tensor<?x4xf32>
    %18 = stablehlo.multiply %17, %17 : tensor<?x4xf32>
    %19 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %20 = stablehlo.concatenate %19, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %21 = stablehlo.dynamic_broadcast_in_dim %cst_7, %20, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x4xf32>
    %22 = stablehlo.multiply %21, %17 : tensor<?x4xf32>
    %23 = stablehlo.convert %arg0 : tensor<i32>
    %24 = stablehlo.multiply %23, %c_9 : tensor<i32>
    %25 = stablehlo.convert %24 : (tensor<i32>) -> tensor<f32>
    %26 = stablehlo.reduce(%18 init: %cst_6) applies stablehlo.add across dimensions = [0, 1] : (tensor<?x4xf32>, tensor<f32>) -> tensor<f32>
    %27 = stablehlo.divide %26, %25 : tensor<f32>
    %28 = stablehlo.divide %cst_10, %25 : tensor<f32>
    %29 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %30 = stablehlo.concatenate %29, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %31 = stablehlo.dynamic_broadcast_in_dim %28, %30, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x4xf32>
    %32 = stablehlo.multiply %31, %22 : tensor<?x4xf32>
    %33 = stablehlo.reduce(%32 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<?x4xf32>, tensor<f32>) -> tensor<4xf32>
    %34 = stablehlo.reshape %33 : (tensor<4xf32>) -> tensor<1x4xf32>
    %35 = stablehlo.reduce(%34 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<1x4xf32>, tensor<f32>) -> tensor<4xf32>
    %36 = stablehlo.dot_general %32, %6, contracting_dims = [0] x [0] : (tensor<?x4xf32>, tensor<?x32xf32>) -> tensor<4x32xf32>
    %37 = stablehlo.transpose %36, dims = [1, 0] : (tensor<4x32xf32>) -> tensor<32x4xf32>
    %38 = stablehlo.dot_general %32, %arg4, contracting_dims = [1] x [1] : (tensor<?x4xf32>, tensor<32x4xf32>) -> tensor<?x32xf32>
    %39 = stablehlo.multiply %38, %10 : tensor<?x32xf32>
    %40 = stablehlo.multiply %39, %6 : tensor<?x32xf32>
    %41 = stablehlo.add %39, %40 : tensor<?x32xf32>
    %42 = stablehlo.reduce(%41 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<?x32xf32>, tensor<f32>) -> tensor<32xf32>
    %43 = stablehlo.reshape %42 : (tensor<32xf32>) -> tensor<1x32xf32>
    %44 = stablehlo.reduce(%43 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %45 = stablehlo.dot_general %41, %arg14, contracting_dims = [0] x [0] : (tensor<?x32xf32>, tensor<?x16xf32>) -> tensor<32x16xf32>
    %46 = stablehlo.transpose %45, dims = [1, 0] : (tensor<32x16xf32>) -> tensor<16x32xf32>
    %47 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %48 = stablehlo.multiply %47, %44 : tensor<32xf32>
    %49 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %50 = stablehlo.multiply %49, %arg6 : tensor<32xf32>
    %51 = stablehlo.add %48, %50 : tensor<32xf32>
    %52 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %53 = stablehlo.multiply %52, %35 : tensor<4xf32>
    %54 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %55 = stablehlo.multiply %54, %arg7 : tensor<4xf32>
    %56 = stablehlo.add %53, %55 : tensor<4xf32>
    %57 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %58 = stablehlo.multiply %57, %46 : tensor<16x32xf32>
    %59 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %60 = stablehlo.multiply %59, %arg8 : tensor<16x32xf32>
    %61 = stablehlo.add %58, %60 : tensor<16x32xf32>
    %62 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %63 = stablehlo.multiply %62, %37 : tensor<32x4xf32>
    %64 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %65 = stablehlo.multiply %64, %arg9 : tensor<32x4xf32>
    %66 = stablehlo.add %63, %65 : tensor<32x4xf32>
    %67 = stablehlo.multiply %44, %44 : tensor<32xf32>
    %68 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %69 = stablehlo.multiply %68, %67 : tensor<32xf32>
    %70 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %71 = stablehlo.multiply %70, %arg10 : tensor<32xf32>
    %72 = stablehlo.add %69, %71 : tensor<32xf32>
    %73 = stablehlo.multiply %35, %35 : tensor<4xf32>
    %74 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %75 = stablehlo.multiply %74, %73 : tensor<4xf32>
    %76 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %77 = stablehlo.multiply %76, %arg11 : tensor<4xf32>
    %78 = stablehlo.add %75, %77 : tensor<4xf32>
    %79 = stablehlo.multiply %46, %46 : tensor<16x32xf32>
    %80 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %81 = stablehlo.multiply %80, %79 : tensor<16x32xf32>
    %82 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %83 = stablehlo.multiply %82, %arg12 : tensor<16x32xf32>
    %84 = stablehlo.add %81, %83 : tensor<16x32xf32>
    %85 = stablehlo.multiply %37, %37 : tensor<32x4xf32>
    %86 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %87 = stablehlo.multiply %86, %85 : tensor<32x4xf32>
    %88 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %89 = stablehlo.multiply %88, %arg13 : tensor<32x4xf32>
    %90 = stablehlo.add %87, %89 : tensor<32x4xf32>
    %91 = stablehlo.compare LT, %arg5, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %92 = stablehlo.add %arg5, %c : tensor<i32>
    %93 = call @_where(%arg0, %91, %92, %c_1) : (tensor<i32>, tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %94 = stablehlo.convert %93 : (tensor<i32>) -> tensor<f32>
    %95 = stablehlo.power %cst_4, %94 : tensor<f32>
    %96 = stablehlo.subtract %cst_10, %95 : tensor<f32>
    %97 = stablehlo.broadcast_in_dim %96, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %98 = stablehlo.divide %51, %97 : tensor<32xf32>
    %99 = stablehlo.broadcast_in_dim %96, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %100 = stablehlo.divide %56, %99 : tensor<4xf32>
    %101 = stablehlo.broadcast_in_dim %96, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %102 = stablehlo.divide %61, %101 : tensor<16x32xf32>
    %103 = stablehlo.broadcast_in_dim %96, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %104 = stablehlo.divide %66, %103 : tensor<32x4xf32>
    %105 = stablehlo.convert %93 : (tensor<i32>) -> tensor<f32>
    %106 = stablehlo.power %cst_2, %105 : tensor<f32>
    %107 = stablehlo.subtract %cst_10, %106 : tensor<f32>
    %108 = stablehlo.broadcast_in_dim %107, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %109 = stablehlo.divide %72, %108 : tensor<32xf32>
    %110 = stablehlo.broadcast_in_dim %107, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %111 = stablehlo.divide %78, %110 : tensor<4xf32>
    %112 = stablehlo.broadcast_in_dim %107, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %113 = stablehlo.divide %84, %112 : tensor<16x32xf32>
    %114 = stablehlo.broadcast_in_dim %107, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %115 = stablehlo.divide %90, %114 : tensor<32x4xf32>
    %116 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %117 = stablehlo.add %109, %116 : tensor<32xf32>
    %118 = stablehlo.sqrt %117 : tensor<32xf32>
    %119 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %120 = stablehlo.add %118, %119 : tensor<32xf32>
    %121 = stablehlo.divide %98, %120 : tensor<32xf32>
    %122 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %123 = stablehlo.add %111, %122 : tensor<4xf32>
    %124 = stablehlo.sqrt %123 : tensor<4xf32>
    %125 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %126 = stablehlo.add %124, %125 : tensor<4xf32>
    %127 = stablehlo.divide %100, %126 : tensor<4xf32>
    %128 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %129 = stablehlo.add %113, %128 : tensor<16x32xf32>
    %130 = stablehlo.sqrt %129 : tensor<16x32xf32>
    %131 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %132 = stablehlo.add %130, %131 : tensor<16x32xf32>
    %133 = stablehlo.divide %102, %132 : tensor<16x32xf32>
    %134 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %135 = stablehlo.add %115, %134 : tensor<32x4xf32>
    %136 = stablehlo.sqrt %135 : tensor<32x4xf32>
    %137 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %138 = stablehlo.add %136, %137 : tensor<32x4xf32>
    %139 = stablehlo.divide %104, %138 : tensor<32x4xf32>
    %140 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %141 = stablehlo.multiply %140, %121 : tensor<32xf32>
    %142 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %143 = stablehlo.multiply %142, %127 : tensor<4xf32>
    %144 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %145 = stablehlo.multiply %144, %133 : tensor<16x32xf32>
    %146 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<32x4xf32>
    %147 = stablehlo.multiply %146, %139 : tensor<32x4xf32>
    %148 = stablehlo.add %arg1, %141 : tensor<32xf32>
    %149 = stablehlo.add %arg2, %143 : tensor<4xf32>
    %150 = stablehlo.add %arg3, %145 : tensor<16x32xf32>
    %151 = stablehlo.add %arg4, %147 : tensor<32x4xf32>
    return %148, %149, %150, %151, %93, %51, %56, %61, %66, %72, %78, %84, %90, %27 : tensor<32xf32>, tensor<4xf32>, tensor<16x32xf32>, tensor<32x4xf32>, tensor<i32>, tensor<32xf32>, tensor<4xf32>, tensor<16x32xf32>, tensor<32x4xf32>, tensor<32xf32>, tensor<4xf32>, tensor<16x32xf32>, tensor<32x4xf32>, tensor<f32>
  }
  func.func private @_where(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<i1>, %arg2: tensor<i32>, %arg3: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg1, %arg2, %arg3 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
}
