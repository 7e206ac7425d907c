module @jit_fn attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x8x16xf32>, %arg1: tensor<16xf32>, %arg2: tensor<3x16x16xf32>, %arg3: tensor<16xf32>, %arg4: tensor<16x4xf32>, %arg5: tensor<4xf32>, %arg6: tensor<2x?x8xf32>) -> (tensor<2x4xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<-7> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<128> : tensor<i32>
    %c_2 = stablehlo.constant dense<-1> : tensor<i32>
    %c_3 = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg6, dim = 1 : (tensor<2x?x8xf32>) -> tensor<i32>
    %1 = stablehlo.compare GE, %0, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%1, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'l'. Using the following polymorphic shapes specifications: args[2].shape = (2, l, 8). Obtained dimension variables: 'l' = {0} from specification 'l' for dimension args[2].shape[1] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %2 = stablehlo.convert %0 : tensor<i32>
    %3 = stablehlo.multiply %2, %c_2 : tensor<i32>
    %4 = stablehlo.add %3, %c_1 : tensor<i32>
    %5 = stablehlo.compare GE, %4, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.convert %0 : tensor<i32>
    %7 = stablehlo.multiply %6, %c_2 : tensor<i32>
    %8 = stablehlo.add %7, %c_1 : tensor<i32>
    stablehlo.custom_call @shape_assertion(%5, %8, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the symbolic shape constraint l <= 128. Expected '- l + 128' to be greater or equal to 0, but found {0}.  Using the following polymorphic shapes specifications: args[2].shape = (2, l, 8). Obtained dimension variables: 'l' = {1} from specification 'l' for dimension args[2].shape[1] (= {1}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>) -> ()
    %9 = stablehlo.convert %0 : tensor<i32>
    %10 = stablehlo.add %9, %c : tensor<i32>
    %11 = stablehlo.compare GE, %10, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %12 = stablehlo.convert %0 : tensor<i32>
    %13 = stablehlo.add %12, %c : tensor<i32>
    stablehlo.custom_call @shape_assertion(%11, %13, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the symbolic shape constraint l >= 7. Expected 'l - 7' to be greater or equal to 0, but found {0}.  Using the following polymorphic shapes specifications: args[2].shape = (2, l, 8). Obtained dimension variables: 'l' = {1} from specification 'l' for dimension args[2].shape[1] (= {1}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>) -> ()
    %14 = call @_wrapped_jax_export_main(%0, %arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6) : (tensor<i32>, tensor<3x8x16xf32>, tensor<16xf32>, tensor<3x16x16xf32>, tensor<16xf32>, tensor<16x4xf32>, tensor<4xf32>, tensor<2x?x8xf32>) -> tensor<2x4xf32>
    return %14 : tensor<2x4xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "l"}, %arg1: tensor<3x8x16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<3x16x16xf32>, %arg4: tensor<16xf32>, %arg5: tensor<16x4xf32>, %arg6: tensor<4xf32>, %arg7: tensor<2x?x8xf32>) -> (tensor<2x4xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c = stablehlo.constant dense<-2> : tensor<i32>
    %c_0 = stablehlo.constant dense<16> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<2> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<1> : tensor<i32>
    %c_3 = stablehlo.constant dense<2> : tensor<i32>
    %c_4 = stablehlo.constant dense<-3> : tensor<i32>
    %0 = stablehlo.convolution(%arg7, %arg1) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x?x8xf32>, tensor<3x8x16xf32>) -> tensor<2x?x16xf32>
    %1 = stablehlo.reshape %arg2 : (tensor<16xf32>) -> tensor<1x1x16xf32>
    %2 = stablehlo.convert %arg0 : tensor<i32>
    %3 = stablehlo.add %2, %c_4 : tensor<i32>
    %4:2 = call @divmod(%arg0, %3, %c_3) : (tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %5 = stablehlo.add %4#0, %c_2 : tensor<i32>
    %6 = stablehlo.reshape %5 : (tensor<i32>) -> tensor<1xi32>
    %7 = stablehlo.concatenate %c_1, %6, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %8 = stablehlo.dynamic_broadcast_in_dim %1, %7, dims = [0, 1, 2] : (tensor<1x1x16xf32>, tensor<3xi32>) -> tensor<2x?x16xf32>
    %9 = stablehlo.add %0, %8 : tensor<2x?x16xf32>
    %10 = call @relu(%arg0, %9) : (tensor<i32>, tensor<2x?x16xf32>) -> tensor<2x?x16xf32>
    %11 = stablehlo.convolution(%10, %arg3) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x?x16xf32>, tensor<3x16x16xf32>) -> tensor<2x?x16xf32>
    %12 = stablehlo.reshape %arg4 : (tensor<16xf32>) -> tensor<1x1x16xf32>
    %13 = stablehlo.convert %arg0 : tensor<i32>
    %14 = stablehlo.add %13, %c_4 : tensor<i32>
    %15:2 = call @divmod(%arg0, %14, %c_3) : (tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %16 = stablehlo.add %15#0, %c : tensor<i32>
    %17:2 = call @divmod(%arg0, %16, %c_3) : (tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %18 = stablehlo.add %17#0, %c_2 : tensor<i32>
    %19 = stablehlo.reshape %18 : (tensor<i32>) -> tensor<1xi32>
    %20 = stablehlo.concatenate %c_1, %19, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %21 = stablehlo.dynamic_broadcast_in_dim %12, %20, dims = [0, 1, 2] : (tensor<1x1x16xf32>, tensor<3xi32>) -> tensor<2x?x16xf32>
    %22 = stablehlo.add %11, %21 : tensor<2x?x16xf32>
    %23 = stablehlo.convert %arg0 : tensor<i32>
    %24 = stablehlo.add %23, %c_4 : tensor<i32>
    %25:2 = call @divmod(%arg0, %24, %c_3) : (tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %26 = stablehlo.add %25#0, %c : tensor<i32>
    %27:2 = call @divmod(%arg0, %26, %c_3) : (tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %28 = stablehlo.add %27#0, %c_2 : tensor<i32>
    %29 = stablehlo.convert %28 : (tensor<i32>) -> tensor<f32>
    %30 = stablehlo.reduce(%22 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<2x?x16xf32>, tensor<f32>) -> tensor<2x16xf32>
    %31 = stablehlo.broadcast_in_dim %29, dims = [] : (tensor<f32>) -> tensor<2x16xf32>
    %32 = stablehlo.divide %30, %31 : tensor<2x16xf32>
    %33 = stablehlo.dot_general %32, %arg5, contracting_dims = [1] x [0] : (tensor<2x16xf32>, tensor<16x4xf32>) -> tensor<2x4xf32>
    %34 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %35 = stablehlo.broadcast_in_dim %34, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<2x4xf32>
    %36 = stablehlo.add %33, %35 : tensor<2x4xf32>
    return %36 : tensor<2x4xf32>
  }
  func.func private @divmod(%arg0: tensor<i32> {jax.global_constant = "l"}, %arg1: tensor<i32>, %arg2: tensor<i32>) -> (tensor<i32>, tensor<i32>) {
    %0 = call @floor_divide(%arg0, %arg1, %arg2) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %1 = call @remainder(%arg0, %arg1, %arg2) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<i32>
    return %0, %1 : tensor<i32>, tensor<i32>
  }
  func.func private @floor_divide(%arg0: tensor<i32> {jax.global_constant = "l"}, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.divide %arg1, %arg2 : tensor<i32>
    %1 = stablehlo.sign %arg1 : tensor<i32>
    %2 = stablehlo.sign %arg2 : tensor<i32>
    %3 = stablehlo.compare NE, %1, %2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %4 = stablehlo.remainder %arg1, %arg2 : tensor<i32>
    %5 = stablehlo.compare NE, %4, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.and %3, %5 : tensor<i1>
    %7 = stablehlo.subtract %0, %c : tensor<i32>
    %8 = call @_where(%arg0, %6, %7, %0) : (tensor<i32>, tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    return %8 : tensor<i32>
  }
  func.func private @_where(%arg0: tensor<i32> {jax.global_constant = "l"}, %arg1: tensor<i1>, %arg2: tensor<i32>, %arg3: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg1, %arg2, %arg3 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
  func.func private @remainder(%arg0: tensor<i32> {jax.global_constant = "l"}, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.compare EQ, %arg2, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = call @_where(%arg0, %0, %c, %arg2) : (tensor<i32>, tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %2 = stablehlo.remainder %arg1, %1 : tensor<i32>
    %3 = stablehlo.compare NE, %2, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %4 = stablehlo.compare LT, %2, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %5 = stablehlo.compare LT, %1, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.compare NE, %4, %5, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %7 = stablehlo.and %6, %3 : tensor<i1>
    %8 = stablehlo.add %2, %1 : tensor<i32>
    %9 = stablehlo.select %7, %8, %2 : tensor<i1>, tensor<i32>
    return %9 : tensor<i32>
  }
  func.func private @relu(%arg0: tensor<i32> {jax.global_constant = "l"}, %arg1: tensor<2x?x16xf32>) -> tensor<2x?x16xf32> {
    %c = stablehlo.constant dense<16> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<2> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %c_2 = stablehlo.constant dense<2> : tensor<i32>
    %c_3 = stablehlo.constant dense<-3> : tensor<i32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.convert %arg0 : tensor<i32>
    %1 = stablehlo.add %0, %c_3 : tensor<i32>
    %2:2 = call @divmod(%arg0, %1, %c_2) : (tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %3 = stablehlo.add %2#0, %c_1 : tensor<i32>
    %4 = stablehlo.reshape %3 : (tensor<i32>) -> tensor<1xi32>
    %5 = stablehlo.concatenate %c_0, %4, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %6 = stablehlo.dynamic_broadcast_in_dim %cst, %5, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<2x?x16xf32>
    %7 = stablehlo.maximum %arg1, %6 : tensor<2x?x16xf32>
    return %7 : tensor<2x?x16xf32>
  }
}
