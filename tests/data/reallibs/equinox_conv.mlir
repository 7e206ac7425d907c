module @jit_fn attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x4x3xf32>, %arg1: tensor<16x1xf32>, %arg2: tensor<16x16x3xf32>, %arg3: tensor<16x1xf32>, %arg4: tensor<2x4x?xf32>) -> (tensor<2x16xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<64> : tensor<i32>
    %c_1 = stablehlo.constant dense<-1> : tensor<i32>
    %c_2 = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg4, dim = 2 : (tensor<2x4x?xf32>) -> tensor<i32>
    %1 = stablehlo.compare GE, %0, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%1, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'l'. Using the following polymorphic shapes specifications: args[1].shape = (2, 4, l). Obtained dimension variables: 'l' = {0} from specification 'l' for dimension args[1].shape[2] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %2 = stablehlo.convert %0 : tensor<i32>
    %3 = stablehlo.multiply %2, %c_1 : tensor<i32>
    %4 = stablehlo.add %3, %c_0 : tensor<i32>
    %5 = stablehlo.compare GE, %4, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.convert %0 : tensor<i32>
    %7 = stablehlo.multiply %6, %c_1 : tensor<i32>
    %8 = stablehlo.add %7, %c_0 : tensor<i32>
    stablehlo.custom_call @shape_assertion(%5, %8, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the symbolic shape constraint l <= 64. Expected '- l + 64' to be greater or equal to 0, but found {0}.  Using the following polymorphic shapes specifications: args[1].shape = (2, 4, l). Obtained dimension variables: 'l' = {1} from specification 'l' for dimension args[1].shape[2] (= {1}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>) -> ()
    %9 = call @_wrapped_jax_export_main(%0, %arg0, %arg1, %arg2, %arg3, %arg4) : (tensor<i32>, tensor<16x4x3xf32>, tensor<16x1xf32>, tensor<16x16x3xf32>, tensor<16x1xf32>, tensor<2x4x?xf32>) -> tensor<2x16xf32>
    return %9 : tensor<2x16xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "l"}, %arg1: tensor<16x4x3xf32>, %arg2: tensor<16x1xf32>, %arg3: tensor<16x16x3xf32>, %arg4: tensor<16x1xf32>, %arg5: tensor<2x4x?xf32>) -> (tensor<2x16xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c = stablehlo.constant dense<16> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<2> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<4> : tensor<1xi32>
    %0 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.concatenate %c_0, %c_1, %c_2, %0, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %2 = stablehlo.dynamic_broadcast_in_dim %arg5, %1, dims = [0, 2, 3] : (tensor<2x4x?xf32>, tensor<4xi32>) -> tensor<2x1x4x?xf32>
    %3 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %4 = stablehlo.concatenate %c_0, %c_2, %3, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %5 = stablehlo.dynamic_reshape %2, %4 : (tensor<2x1x4x?xf32>, tensor<3xi32>) -> tensor<2x4x?xf32>
    %6 = stablehlo.convolution(%5, %arg1) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x4x?xf32>, tensor<16x4x3xf32>) -> tensor<2x16x?xf32>
    %7 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %8 = stablehlo.concatenate %c_0, %c_1, %c, %7, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %9 = stablehlo.dynamic_reshape %6, %8 : (tensor<2x16x?xf32>, tensor<4xi32>) -> tensor<2x1x16x?xf32>
    %10 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %11 = stablehlo.concatenate %c_0, %c, %10, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %12 = stablehlo.dynamic_reshape %9, %11 : (tensor<2x1x16x?xf32>, tensor<3xi32>) -> tensor<2x16x?xf32>
    %13 = stablehlo.broadcast_in_dim %arg2, dims = [1, 2] : (tensor<16x1xf32>) -> tensor<1x16x1xf32>
    %14 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %15 = stablehlo.concatenate %c_0, %c, %14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %16 = stablehlo.dynamic_broadcast_in_dim %13, %15, dims = [0, 1, 2] : (tensor<1x16x1xf32>, tensor<3xi32>) -> tensor<2x16x?xf32>
    %17 = stablehlo.add %12, %16 : tensor<2x16x?xf32>
    %18 = call @relu(%arg0, %17) : (tensor<i32>, tensor<2x16x?xf32>) -> tensor<2x16x?xf32>
    %19 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %20 = stablehlo.concatenate %c_0, %c_1, %c, %19, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %21 = stablehlo.dynamic_broadcast_in_dim %18, %20, dims = [0, 2, 3] : (tensor<2x16x?xf32>, tensor<4xi32>) -> tensor<2x1x16x?xf32>
    %22 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %23 = stablehlo.concatenate %c_0, %c, %22, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %24 = stablehlo.dynamic_reshape %21, %23 : (tensor<2x1x16x?xf32>, tensor<3xi32>) -> tensor<2x16x?xf32>
    %25 = stablehlo.convolution(%24, %arg3) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x16x?xf32>, tensor<16x16x3xf32>) -> tensor<2x16x?xf32>
    %26 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %27 = stablehlo.concatenate %c_0, %c_1, %c, %26, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %28 = stablehlo.dynamic_reshape %25, %27 : (tensor<2x16x?xf32>, tensor<4xi32>) -> tensor<2x1x16x?xf32>
    %29 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %30 = stablehlo.concatenate %c_0, %c, %29, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %31 = stablehlo.dynamic_reshape %28, %30 : (tensor<2x1x16x?xf32>, tensor<3xi32>) -> tensor<2x16x?xf32>
    %32 = stablehlo.broadcast_in_dim %arg4, dims = [1, 2] : (tensor<16x1xf32>) -> tensor<1x16x1xf32>
    %33 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %34 = stablehlo.concatenate %c_0, %c, %33, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %35 = stablehlo.dynamic_broadcast_in_dim %32, %34, dims = [0, 1, 2] : (tensor<1x16x1xf32>, tensor<3xi32>) -> tensor<2x16x?xf32>
    %36 = stablehlo.add %31, %35 : tensor<2x16x?xf32>
    %37 = call @relu(%arg0, %36) : (tensor<i32>, tensor<2x16x?xf32>) -> tensor<2x16x?xf32>
    %38 = stablehlo.convert %arg0 : (tensor<i32>) -> tensor<f32>
    %39 = stablehlo.reduce(%37 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<2x16x?xf32>, tensor<f32>) -> tensor<2x16xf32>
    %40 = stablehlo.broadcast_in_dim %38, dims = [] : (tensor<f32>) -> tensor<2x16xf32>
    %41 = stablehlo.divide %39, %40 : tensor<2x16xf32>
    return %41 : tensor<2x16xf32>
  }
  func.func private @relu(%arg0: tensor<i32> {jax.global_constant = "l"}, %arg1: tensor<2x16x?xf32>) -> tensor<2x16x?xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c = stablehlo.constant dense<2> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<16> : tensor<1xi32>
    %0 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.concatenate %c, %c_0, %0, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %2 = stablehlo.dynamic_broadcast_in_dim %cst, %1, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x16x?xf32>
    %3 = stablehlo.maximum %arg1, %2 : tensor<2x16x?xf32>
    return %3 : tensor<2x16x?xf32>
  }
}
