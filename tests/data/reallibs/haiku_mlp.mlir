module @jit_apply_fn attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32xf32>, %arg1: tensor<16x32xf32>, %arg2: tensor<32xf32>, %arg3: tensor<32x32xf32>, %arg4: tensor<8xf32>, %arg5: tensor<32x8xf32>, %arg6: tensor<?x16xf32>) -> (tensor<?x8xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<32> : tensor<i32>
    %c_1 = stablehlo.constant dense<-1> : tensor<i32>
    %c_2 = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg6, dim = 0 : (tensor<?x16xf32>) -> tensor<i32>
    %1 = stablehlo.compare GE, %0, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%1, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[1].shape = (b, 16). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[1].shape[0] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %2 = stablehlo.convert %0 : tensor<i32>
    %3 = stablehlo.multiply %2, %c_1 : tensor<i32>
    %4 = stablehlo.add %3, %c_0 : tensor<i32>
    %5 = stablehlo.compare GE, %4, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.convert %0 : tensor<i32>
    %7 = stablehlo.multiply %6, %c_1 : tensor<i32>
    %8 = stablehlo.add %7, %c_0 : tensor<i32>
    stablehlo.custom_call @shape_assertion(%5, %8, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the symbolic shape constraint b <= 32. Expected '- b + 32' to be greater or equal to 0, but found {0}.  Using the following polymorphic shapes specifications: args[1].shape = (b, 16). Obtained dimension variables: 'b' = {1} from specification 'b' for dimension args[1].shape[0] (= {1}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>) -> ()
    %9 = call @_wrapped_jax_export_main(%0, %arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6) : (tensor<i32>, tensor<32xf32>, tensor<16x32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<8xf32>, tensor<32x8xf32>, tensor<?x16xf32>) -> tensor<?x8xf32>
    return %9 : tensor<?x8xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<32xf32>, %arg2: tensor<16x32xf32>, %arg3: tensor<32xf32>, %arg4: tensor<32x32xf32>, %arg5: tensor<8xf32>, %arg6: tensor<32x8xf32>, %arg7: tensor<?x16xf32>) -> (tensor<?x8xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<8> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<32> : tensor<1xi32>
    %0 = stablehlo.dot_general %arg7, %arg2, contracting_dims = [1] x [0] : (tensor<?x16xf32>, tensor<16x32xf32>) -> tensor<?x32xf32>
    %1 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2 = stablehlo.concatenate %1, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %3 = stablehlo.dynamic_broadcast_in_dim %arg1, %2, dims = [1] : (tensor<32xf32>, tensor<2xi32>) -> tensor<?x32xf32>
    %4 = stablehlo.add %0, %3 : tensor<?x32xf32>
    %5 = call @relu(%arg0, %4) : (tensor<i32>, tensor<?x32xf32>) -> tensor<?x32xf32>
    %6 = stablehlo.dot_general %5, %arg4, contracting_dims = [1] x [0] : (tensor<?x32xf32>, tensor<32x32xf32>) -> tensor<?x32xf32>
    %7 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %8 = stablehlo.concatenate %7, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %9 = stablehlo.dynamic_broadcast_in_dim %arg3, %8, dims = [1] : (tensor<32xf32>, tensor<2xi32>) -> tensor<?x32xf32>
    %10 = stablehlo.add %6, %9 : tensor<?x32xf32>
    %11 = call @relu(%arg0, %10) : (tensor<i32>, tensor<?x32xf32>) -> tensor<?x32xf32>
    %12 = stablehlo.dot_general %11, %arg6, contracting_dims = [1] x [0] : (tensor<?x32xf32>, tensor<32x8xf32>) -> tensor<?x8xf32>
    %13 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %14 = stablehlo.concatenate %13, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %15 = stablehlo.dynamic_broadcast_in_dim %arg5, %14, dims = [1] : (tensor<8xf32>, tensor<2xi32>) -> tensor<?x8xf32>
    %16 = stablehlo.add %12, %15 : tensor<?x8xf32>
    return %16 : tensor<?x8xf32>
  }
  func.func private @relu(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x32xf32>) -> tensor<?x32xf32> {
    %c = stablehlo.constant dense<32> : tensor<1xi32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.concatenate %0, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %2 = stablehlo.dynamic_broadcast_in_dim %cst, %1, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x32xf32>
    %3 = stablehlo.maximum %arg1, %2 : tensor<?x32xf32>
    return %3 : tensor<?x32xf32>
  }
}
